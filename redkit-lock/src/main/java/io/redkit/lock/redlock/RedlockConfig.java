package io.redkit.lock.redlock;

import java.time.Duration;

import io.redkit.Validate;
import io.redkit.lock.LockConfig;

/** How a {@link Redlock} behaves. Immutable; the builder rejects a bad value at once, naming it. */
public final class RedlockConfig {

    /** The number of independent masters the Redlock analysis assumes; a quorum is then 3. */
    public static final int DEFAULT_NODES = 5;
    /** Lease time to live on every node. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(10);
    /** How long one node may take to answer; small, so a dead node costs little of the TTL. */
    public static final Duration DEFAULT_NODE_TIMEOUT = Duration.ofMillis(50);
    /** Pause between failed rounds while waiting (jittered up to twice this). */
    public static final Duration DEFAULT_RETRY_DELAY = Duration.ofMillis(50);

    private final String namespace;
    private final Duration ttl;
    private final Duration nodeTimeout;
    private final Duration clockDrift;
    private final Duration retryDelay;

    private RedlockConfig(Builder b) {
        this.namespace = b.namespace;
        this.ttl = b.ttl;
        this.nodeTimeout = b.nodeTimeout;
        this.clockDrift = b.clockDrift != null ? b.clockDrift : Duration.ofMillis(2).plus(b.ttl.dividedBy(100));
        this.retryDelay = b.retryDelay;
    }

    /** A builder with every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** Key namespace; default {@code lock}. */
    public String namespace() { return namespace; }

    /** Time to live on each node; default {@link #DEFAULT_TTL}. */
    public Duration ttl() { return ttl; }

    /** Per-node reply timeout; default {@link #DEFAULT_NODE_TIMEOUT}. */
    public Duration nodeTimeout() { return nodeTimeout; }

    /** Clock drift allowance subtracted from the validity; default 2 ms + 1% of the TTL. */
    public Duration clockDrift() { return clockDrift; }

    /** Pause between rounds while waiting; default {@link #DEFAULT_RETRY_DELAY}. */
    public Duration retryDelay() { return retryDelay; }

    /** Builds a {@link RedlockConfig}. */
    public static final class Builder {
        private String namespace = "lock";
        private Duration ttl = DEFAULT_TTL;
        private Duration nodeTimeout = DEFAULT_NODE_TIMEOUT;
        private Duration clockDrift;
        private Duration retryDelay = DEFAULT_RETRY_DELAY;

        private Builder() {
        }

        /** Key namespace: 1-64 of {@code [A-Za-z0-9_.-]}. */
        public Builder namespace(String value) {
            this.namespace = Validate.name("namespace", value, 64);
            return this;
        }

        /** Time to live on each node, 10 ms to {@link LockConfig#MAX_DURATION} (no watchdog: any length it can use). */
        public Builder ttl(Duration value) {
            this.ttl = Validate.within("ttl", value, Duration.ofMillis(10), LockConfig.MAX_DURATION);
            return this;
        }

        /** Per-node reply timeout, positive. */
        public Builder nodeTimeout(Duration value) {
            this.nodeTimeout = Validate.positive("nodeTimeout", value, LockConfig.MAX_DURATION);
            return this;
        }

        /** Clock drift allowance, zero or more. */
        public Builder clockDrift(Duration value) {
            this.clockDrift = Validate.nonNegative("clockDrift", value, LockConfig.MAX_DURATION);
            return this;
        }

        /** Pause between rounds while waiting, positive. */
        public Builder retryDelay(Duration value) {
            this.retryDelay = Validate.positive("retryDelay", value, LockConfig.MAX_DURATION);
            return this;
        }

        /** Checks the values against each other and builds. */
        public RedlockConfig build() {
            if (nodeTimeout.compareTo(ttl) >= 0) {
                throw new IllegalArgumentException("nodeTimeout (" + nodeTimeout + ") must be below the ttl (" + ttl
                        + "), or one slow node spends the whole lease");
            }
            return new RedlockConfig(this);
        }
    }
}
