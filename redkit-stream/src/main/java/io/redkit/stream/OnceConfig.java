package io.redkit.stream;

import java.time.Duration;

import io.redkit.ReadFrom;
import io.redkit.Validate;

/**
 * How one {@link Once} marks keys: {@code once:{<scope>:<key>}}, {@code running} for the lease, then
 * {@code done} for the window. Immutable; built by {@link #builder(String)}.
 */
public final class OnceConfig {

    /** Key namespace. */
    public static final String DEFAULT_NAMESPACE = "once";
    /** How long a done key is remembered: a day of producer retries and redeliveries. */
    public static final Duration DEFAULT_DONE_TTL = Duration.ofDays(1);
    /** How long a running marker lasts: the default visibility timeout of a queue. */
    public static final Duration DEFAULT_LEASE_TTL = StreamConfig.DEFAULT_VISIBILITY_TIMEOUT;

    private final String scope;
    private final String namespace;
    private final Duration doneTtl;
    private final Duration leaseTtl;

    private OnceConfig(Builder b) {
        this.scope = b.scope;
        this.namespace = b.namespace;
        this.doneTtl = b.doneTtl;
        this.leaseTtl = b.leaseTtl;
    }

    /** A builder for keys of {@code scope} (1-64 of {@code [A-Za-z0-9_.-]}, e.g. the stream's name). */
    public static Builder builder(String scope) {
        return new Builder().scope(scope);
    }

    /** The scope: keys of different scopes never meet. */
    public String scope() { return scope; }

    /** Key namespace; default {@value #DEFAULT_NAMESPACE}. */
    public String namespace() { return namespace; }

    /** How long a done key is remembered; default 1 day. */
    public Duration doneTtl() { return doneTtl; }

    /** How long a running marker lasts; default 30 s. */
    public Duration leaseTtl() { return leaseTtl; }

    @Override
    public String toString() {
        return "OnceConfig[" + namespace + ":{" + scope + ":…}, done=" + doneTtl + ", lease=" + leaseTtl + "]";
    }

    /** Builds a {@link OnceConfig}; each setter rejects a bad value at once, naming it. */
    public static final class Builder {
        private String scope;
        private String namespace = DEFAULT_NAMESPACE;
        private Duration doneTtl = DEFAULT_DONE_TTL;
        private Duration leaseTtl = DEFAULT_LEASE_TTL;

        private Builder() {
        }

        /** The scope: 1-64 of {@code [A-Za-z0-9_.-]}. */
        public Builder scope(String value) {
            this.scope = Validate.name("scope", value, 64);
            return this;
        }

        /** Key namespace: 1-64 of {@code [A-Za-z0-9_.-]}. */
        public Builder namespace(String value) {
            this.namespace = Validate.name("namespace", value, 64);
            return this;
        }

        /** How long a done key is remembered: 1 s to 30 days, above the lease (checked in build()). */
        public Builder doneTtl(Duration value) {
            this.doneTtl = Validate.within("doneTtl", value, Duration.ofSeconds(1), Duration.ofDays(30));
            return this;
        }

        /** How long a running marker lasts: 100 ms to 1 day; longer than the work ever takes. */
        public Builder leaseTtl(Duration value) {
            this.leaseTtl = Validate.within("leaseTtl", value, Duration.ofMillis(100), Duration.ofDays(1));
            return this;
        }

        /**
         * The markers are read and written on the master only; anything else is refused here: a replica could
         * miss a marker just written, and the work would run twice.
         *
         * @throws IllegalArgumentException for anything but {@link ReadFrom#MASTER}
         */
        public Builder readFrom(ReadFrom value) {
            Validate.masterOnly("idempotency markers", value, "a replica may miss a marker just written");
            return this;
        }

        /** Checks the values against each other and builds the configuration. */
        public OnceConfig build() {
            if (doneTtl.compareTo(leaseTtl) <= 0) {
                throw new IllegalArgumentException("doneTtl (" + doneTtl + ") must be longer than the leaseTtl ("
                        + leaseTtl + ")");
            }
            return new OnceConfig(this);
        }
    }
}
