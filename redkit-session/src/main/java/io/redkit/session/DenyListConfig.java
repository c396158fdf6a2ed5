package io.redkit.session;

import java.time.Duration;

import io.redkit.ReadFrom;
import io.redkit.Validate;

/**
 * How a {@link TokenDenyList} behaves. Immutable; built by {@link #builder()}, which validates each value as it is
 * set and names the bad one. Every default is the constant next to its accessor.
 */
public final class DenyListConfig {

    /** Key namespace: a denied token id is {@code deny:{<token id>}}. */
    public static final String DEFAULT_NAMESPACE = "deny";
    /**
     * How long past a token's expiry its denial is kept. Validators accept a token a little after its {@code exp}
     * for clock skew: Spring Security's {@code JwtTimestampValidator} and Nimbus both allow 60 s by default, so a
     * denial dropped at the exact expiry would let a revoked token back in for that minute.
     */
    public static final Duration DEFAULT_LEEWAY = Duration.ofSeconds(60);
    /**
     * The latest expiry accepted, from now. Refresh tokens commonly live up to 30 days; an expiry further out is a
     * bug or a forged claim, and would pin a key in Redis for as long.
     */
    public static final Duration DEFAULT_MAX_TOKEN_LIFETIME = Duration.ofDays(30);
    /** The longest token id accepted: it becomes part of a key. */
    public static final int MAX_TOKEN_ID_LENGTH = 256;

    private final String namespace;
    private final Duration leeway;
    private final Duration maxTokenLifetime;
    private final Duration timeout;

    private DenyListConfig(Builder b) {
        this.namespace = b.namespace;
        this.leeway = b.leeway;
        this.maxTokenLifetime = b.maxTokenLifetime;
        this.timeout = b.timeout;
    }

    /** A builder with every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** Every default. */
    public static DenyListConfig defaults() {
        return builder().build();
    }

    /** Key namespace, also the {@code store} tag of the meters; default {@value #DEFAULT_NAMESPACE}. */
    public String namespace() { return namespace; }

    /** How long past a token's expiry its denial is kept; default {@link #DEFAULT_LEEWAY}. */
    public Duration leeway() { return leeway; }

    /** The latest token expiry accepted, from now; default {@link #DEFAULT_MAX_TOKEN_LIFETIME}. */
    public Duration maxTokenLifetime() { return maxTokenLifetime; }

    /** The per-command timeout, or null (the default) for the client's request profile (300 ms). */
    public Duration timeout() { return timeout; }

    @Override
    public String toString() {
        return "DenyListConfig[namespace=" + namespace + ", leeway=" + leeway + ", maxTokenLifetime="
                + maxTokenLifetime + ", timeout=" + (timeout == null ? "request profile" : timeout) + "]";
    }

    /** Builds a {@link DenyListConfig}; each setter rejects a bad value at once, naming it. */
    public static final class Builder {
        private String namespace = DEFAULT_NAMESPACE;
        private Duration leeway = DEFAULT_LEEWAY;
        private Duration maxTokenLifetime = DEFAULT_MAX_TOKEN_LIFETIME;
        private Duration timeout;

        private Builder() {
        }

        /** Key namespace: 1-64 of {@code [A-Za-z0-9_.-]}. */
        public Builder namespace(String value) {
            this.namespace = Validate.name("namespace", value, 64);
            return this;
        }

        /** How long past a token's expiry its denial is kept, 0 to 1 hour. */
        public Builder leeway(Duration value) {
            this.leeway = Validate.nonNegative("leeway", value, Duration.ofHours(1));
            return this;
        }

        /** The latest token expiry accepted, from now: 1 minute to 365 days. */
        public Builder maxTokenLifetime(Duration value) {
            this.maxTokenLifetime = Validate.within("maxTokenLifetime", value, Duration.ofMinutes(1),
                    Duration.ofDays(365));
            return this;
        }

        /** The per-command timeout, 1 ms to 10 s (default: the client's request profile). */
        public Builder timeout(Duration value) {
            this.timeout = ConfigChecks.timeout(value);
            return this;
        }

        /**
         * The deny-list reads the master only; anything else is refused here: a replica that has not yet seen a
         * denial would let the revoked token through.
         *
         * @throws IllegalArgumentException for anything but {@link ReadFrom#MASTER}
         */
        public Builder readFrom(ReadFrom value) {
            ConfigChecks.masterOnly(value, "deny-lists", "a replica may not have seen a denial yet");
            return this;
        }

        /** Builds the configuration. */
        public DenyListConfig build() {
            return new DenyListConfig(this);
        }
    }
}
