package io.redkit.lock;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

import io.redkit.ReadFrom;
import io.redkit.Validate;

/**
 * How the locks of one {@link Locks} behave. Immutable; built by {@link #builder()}, which validates each value as
 * it is set and names the bad one. Every default is the constant next to its accessor.
 */
public final class LockConfig {

    /** Key namespace: keys are {@code lock:{name}}, as a Go or Node service using the seeds' scheme expects. */
    public static final String DEFAULT_NAMESPACE = "lock";
    /** Lease time to live; the watchdog extends it every third of it while the lease is held. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);
    /**
     * The shortest TTL accepted: a lease's validity timer fires on a 10 ms timer and signals loss a tick early, so
     * a shorter lease would be lost almost as soon as it is taken. Only without the watchdog.
     */
    public static final Duration MIN_TTL = Duration.ofMillis(100);
    /**
     * The shortest TTL the watchdog can keep. It extends every third of the TTL on a timer that fires up to 10 ms
     * late and signals loss a tick before the validity ends: at 300 ms an extension has about 190 ms to come back
     * through a busy moment (a 10 ms lease was lost at its first tick; at 100 ms, one scheduling stall of a loaded
     * 2-core machine lost it).
     */
    public static final Duration MIN_WATCHDOG_TTL = Duration.ofMillis(300);
    /** The longest TTL, wait or retention accepted; longer is a mistake and could overflow a nanosecond deadline. */
    public static final Duration MAX_DURATION = Duration.ofDays(365);
    /** The longest wait {@code tryAcquire(wait)} accepts; a longer one is a bug, not patience. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(5);
    /** First pause between attempts while waiting (jittered, doubled up to the maximum). */
    public static final Duration DEFAULT_BACKOFF_MIN = Duration.ofMillis(5);
    /** Longest pause between attempts while waiting; a release wakes waiters sooner through pub/sub. */
    public static final Duration DEFAULT_BACKOFF_MAX = Duration.ofMillis(250);
    /** How long an idle lock's fence counter is kept (refreshed by every fenced acquisition). */
    public static final Duration DEFAULT_FENCE_RETENTION = Duration.ofDays(7);
    /**
     * Which replicas must confirm an acquisition or extension: those the topology knows. On a standalone server
     * that is none, so the default costs nothing there; under Sentinel or Cluster it closes the seeds' "the lock
     * can vanish when the master fails over" (what Redisson's {@code checkLockSyncedSlaves} does by default).
     */
    public static final ReplicaAcks DEFAULT_REPLICA_ACKS = ReplicaAcks.auto();
    /**
     * How long replicas are given to confirm (Redisson's {@code slavesSyncTimeout}), or a third of the TTL when
     * that is shorter: a confirmation that took longer would eat the lease it confirms.
     */
    public static final Duration DEFAULT_REPLICA_ACK_TIMEOUT = Duration.ofSeconds(1);
    /** The longest confirmation wait accepted (the client's own bound on a {@code WAIT}). */
    public static final Duration MAX_REPLICA_ACK_TIMEOUT = Duration.ofSeconds(60);

    private final String namespace;
    private final Duration ttl;
    private final boolean watchdog;
    private final Duration clockDrift;
    private final Duration explicitDrift;
    private final Duration maxWait;
    private final Duration backoffMin;
    private final Duration backoffMax;
    private final boolean wakeOnRelease;
    private final Fencing fencing;
    private final Duration fenceRetention;
    private final Executor callbackExecutor;
    private final boolean tagLockNames;
    private final ReplicaAcks replicaAcks;
    private final Duration replicaAckTimeout;
    private final Duration explicitReplicaAckTimeout;

    private LockConfig(Builder b) {
        this.namespace = b.namespace;
        this.ttl = b.ttl;
        this.watchdog = b.watchdog;
        this.clockDrift = b.clockDrift != null ? b.clockDrift : defaultDrift(b.ttl);
        this.explicitDrift = b.clockDrift;
        this.maxWait = b.maxWait;
        this.backoffMin = b.backoffMin;
        this.backoffMax = b.backoffMax;
        this.wakeOnRelease = b.wakeOnRelease;
        this.fencing = b.fencing;
        this.fenceRetention = b.fenceRetention;
        this.callbackExecutor = b.callbackExecutor;
        this.tagLockNames = b.tagLockNames;
        this.replicaAcks = b.replicaAcks;
        this.replicaAckTimeout = b.replicaAckTimeout != null ? b.replicaAckTimeout
                : defaultReplicaAckTimeout(b.ttl);
        this.explicitReplicaAckTimeout = b.replicaAckTimeout;
    }

    /** A builder with every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** Every default. */
    public static LockConfig defaults() {
        return builder().build();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.namespace = namespace;
        b.ttl = ttl;
        b.watchdog = watchdog;
        b.clockDrift = explicitDrift;
        b.maxWait = maxWait;
        b.backoffMin = backoffMin;
        b.backoffMax = backoffMax;
        b.wakeOnRelease = wakeOnRelease;
        b.fencing = fencing;
        b.fenceRetention = fenceRetention;
        b.callbackExecutor = callbackExecutor;
        b.tagLockNames = tagLockNames;
        b.replicaAcks = replicaAcks;
        b.replicaAckTimeout = explicitReplicaAckTimeout;
        return b;
    }

    /** The clock drift allowance when none is set: 2 ms plus 1% of the TTL, as in the Redlock analysis. */
    static Duration defaultDrift(Duration ttl) {
        return Duration.ofMillis(2).plus(ttl.dividedBy(100));
    }

    /** The confirmation wait when none is set: {@link #DEFAULT_REPLICA_ACK_TIMEOUT}, or a third of the TTL if less. */
    static Duration defaultReplicaAckTimeout(Duration ttl) {
        Duration third = Duration.ofMillis(ttl.toMillis() / 3); // WAIT counts whole milliseconds
        return third.compareTo(DEFAULT_REPLICA_ACK_TIMEOUT) < 0 ? third : DEFAULT_REPLICA_ACK_TIMEOUT;
    }

    /** Key namespace; default {@value #DEFAULT_NAMESPACE}. */
    public String namespace() { return namespace; }

    /** Lease time to live; default {@link #DEFAULT_TTL}. */
    public Duration ttl() { return ttl; }

    /** Whether a watchdog extends held leases every ttl/3; default true. */
    public boolean watchdog() { return watchdog; }

    /** Subtracted from the TTL for the local validity; default 2 ms + 1% of the TTL. */
    public Duration clockDrift() { return clockDrift; }

    /** The longest wait accepted; default {@link #DEFAULT_MAX_WAIT}; {@link Lock#acquire()} waits this long. */
    public Duration maxWait() { return maxWait; }

    /** First pause between attempts; default {@link #DEFAULT_BACKOFF_MIN}. */
    public Duration backoffMin() { return backoffMin; }

    /** Longest pause between attempts; default {@link #DEFAULT_BACKOFF_MAX}. */
    public Duration backoffMax() { return backoffMax; }

    /** Whether waiters are woken by a pub/sub message on release; default true. */
    public boolean wakeOnRelease() { return wakeOnRelease; }

    /** Where fencing tokens come from, unless a lock says otherwise; default {@link Fencing#redisCounter()}. */
    public Fencing fencing() { return fencing; }

    /** How long an idle fence counter is kept; default {@link #DEFAULT_FENCE_RETENTION}. */
    public Duration fenceRetention() { return fenceRetention; }

    /**
     * Where {@code onLost} callbacks and {@code lost()} completions run; null (the default) for a small pool of
     * daemon threads of the {@link Locks}' own. Never the watchdog's thread: a slow callback must not delay
     * another lease's extension.
     */
    public Executor callbackExecutor() { return callbackExecutor; }

    /** Whether meters carry a {@code lock} tag with the lock's name; default false (names may be unbounded). */
    public boolean tagLockNames() { return tagLockNames; }

    /**
     * Which replicas must confirm an acquisition and each extension before it counts; default
     * {@link #DEFAULT_REPLICA_ACKS}. An acquisition confirmed by fewer is released and refused with
     * {@link LockNotReplicatedException}; an extension confirmed by fewer does not renew the lease's validity.
     */
    public ReplicaAcks replicaAcks() { return replicaAcks; }

    /**
     * How long replicas are given to confirm; default {@link #DEFAULT_REPLICA_ACK_TIMEOUT}, or a third of the TTL
     * when that is shorter.
     */
    public Duration replicaAckTimeout() { return replicaAckTimeout; }

    @Override
    public String toString() {
        return "LockConfig[namespace=" + namespace + ", ttl=" + ttl + ", watchdog=" + watchdog + ", drift="
                + clockDrift + ", maxWait=" + maxWait + ", backoff=" + backoffMin + ".." + backoffMax
                + ", wakeOnRelease=" + wakeOnRelease + ", " + fencing + ", fenceRetention=" + fenceRetention
                + ", replicaAcks=" + replicaAcks + (replicaAcks.mode() == ReplicaAcks.Mode.NONE ? ""
                        : " within " + replicaAckTimeout) + "]";
    }

    /** Builds a {@link LockConfig}; each setter rejects a bad value at once, naming it. */
    public static final class Builder {
        private String namespace = DEFAULT_NAMESPACE;
        private Duration ttl = DEFAULT_TTL;
        private boolean watchdog = true;
        private Duration clockDrift;
        private Duration maxWait = DEFAULT_MAX_WAIT;
        private Duration backoffMin = DEFAULT_BACKOFF_MIN;
        private Duration backoffMax = DEFAULT_BACKOFF_MAX;
        private boolean wakeOnRelease = true;
        private Fencing fencing = Fencing.redisCounter();
        private Duration fenceRetention = DEFAULT_FENCE_RETENTION;
        private Executor callbackExecutor;
        private boolean tagLockNames;
        private ReplicaAcks replicaAcks = DEFAULT_REPLICA_ACKS;
        private Duration replicaAckTimeout;

        private Builder() {
        }

        /** Key namespace: 1-64 of {@code [A-Za-z0-9_.-]}. */
        public Builder namespace(String value) {
            this.namespace = Validate.name("namespace", value, 64);
            return this;
        }

        /**
         * Lease time to live, {@link #MIN_TTL} to {@link #MAX_DURATION}; with the watchdog at least
         * {@link #MIN_WATCHDOG_TTL} (checked in {@link #build()}).
         */
        public Builder ttl(Duration value) {
            if (value != null && (value.isZero() || value.isNegative())) {
                throw new IllegalArgumentException("ttl must be positive, was " + value);
            }
            this.ttl = Validate.within("ttl", value, MIN_TTL, MAX_DURATION);
            return this;
        }

        /** Whether a watchdog extends held leases. */
        public Builder watchdog(boolean value) {
            this.watchdog = value;
            return this;
        }

        /** Clock drift allowance; zero or more, and less than a third of the TTL (checked in {@link #build()}). */
        public Builder clockDrift(Duration value) {
            this.clockDrift = Validate.nonNegative("clockDrift", value, MAX_DURATION);
            return this;
        }

        /** The longest wait accepted; zero or more. */
        public Builder maxWait(Duration value) {
            this.maxWait = Validate.nonNegative("maxWait", value, MAX_DURATION);
            return this;
        }

        /** Backoff bounds between attempts while waiting: {@code 1 ms ≤ min ≤ max}. */
        public Builder backoff(Duration min, Duration max) {
            Validate.within("backoff min", min, Duration.ofMillis(1), MAX_DURATION);
            Validate.nonNegative("backoff max", max, MAX_DURATION);
            if (max.compareTo(min) < 0) {
                throw new IllegalArgumentException("backoff max (" + max + ") must not be below min (" + min + ")");
            }
            this.backoffMin = min;
            this.backoffMax = max;
            return this;
        }

        /** Whether waiters are woken through pub/sub on release (else they rely on backoff alone). */
        public Builder wakeOnRelease(boolean value) {
            this.wakeOnRelease = value;
            return this;
        }

        /** Where fencing tokens come from, unless a lock says otherwise. */
        public Builder fencing(Fencing value) {
            this.fencing = Objects.requireNonNull(value, "fencing");
            return this;
        }

        /** How long an idle fence counter is kept; at least one hour (checked against the TTL in build()). */
        public Builder fenceRetention(Duration value) {
            this.fenceRetention = Validate.within("fenceRetention", value, Duration.ofHours(1), MAX_DURATION);
            return this;
        }

        /** Where {@code onLost} callbacks and {@code lost()} completions run (see {@link LockConfig#callbackExecutor()}). */
        public Builder callbackExecutor(Executor value) {
            this.callbackExecutor = Objects.requireNonNull(value, "callbackExecutor");
            return this;
        }

        /**
         * Locks read and write the master only; anything else is refused here. A replica lags its master, so it
         * could report a lock free that was just taken, or ours after it expired.
         *
         * @throws IllegalArgumentException for anything but {@link ReadFrom#MASTER}
         */
        public Builder readFrom(ReadFrom value) {
            Validate.masterOnly("locks", value, "a replica may report a lock free that was just taken");
            return this;
        }

        /** Tag meters with the lock name: only when the set of names is small and fixed. */
        public Builder tagLockNames(boolean value) {
            this.tagLockNames = value;
            return this;
        }

        /**
         * Which replicas must confirm an acquisition and each extension: {@link ReplicaAcks#none()},
         * {@link ReplicaAcks#auto()} or {@link ReplicaAcks#of(int)}.
         */
        public Builder replicaAcks(ReplicaAcks value) {
            this.replicaAcks = Objects.requireNonNull(value, "replicaAcks");
            return this;
        }

        /**
         * How long replicas are given to confirm: positive, at most {@link #MAX_REPLICA_ACK_TIMEOUT}, and at most a
         * third of the TTL (checked in {@link #build()}).
         */
        public Builder replicaAckTimeout(Duration value) {
            if (value != null && (value.isZero() || value.isNegative())) {
                throw new IllegalArgumentException("replicaAckTimeout must be positive, was " + value);
            }
            this.replicaAckTimeout = Validate.within("replicaAckTimeout", value, Duration.ofMillis(1),
                    MAX_REPLICA_ACK_TIMEOUT);
            return this;
        }

        /** Checks the values against each other and builds the configuration. */
        public LockConfig build() {
            if (watchdog && ttl.compareTo(MIN_WATCHDOG_TTL) < 0) {
                throw new IllegalArgumentException("ttl (" + ttl + ") is too short for the watchdog to keep: at least "
                        + MIN_WATCHDOG_TTL.toMillis() + " ms, or watchdog(false) for a lease that only expires");
            }
            Duration drift = clockDrift != null ? clockDrift : defaultDrift(ttl);
            if (drift.compareTo(ttl.dividedBy(3)) >= 0) {
                throw new IllegalArgumentException("clockDrift (" + drift + ") must be less than a third of the ttl ("
                        + ttl + "), or the lease is invalid before the watchdog's first extension");
            }
            if (fenceRetention.compareTo(ttl.multipliedBy(2)) < 0) {
                throw new IllegalArgumentException("fenceRetention (" + fenceRetention
                        + ") must be at least twice the ttl (" + ttl + ")");
            }
            // An acquisition's validity runs while its replicas confirm it, and an extension's confirmation must
            // land before the validity it renews ends: a longer wait would confirm leases already lost.
            if (replicaAcks.mode() != ReplicaAcks.Mode.NONE && replicaAckTimeout != null
                    && replicaAckTimeout.compareTo(ttl.dividedBy(3)) > 0) {
                throw new IllegalArgumentException("replicaAckTimeout (" + replicaAckTimeout
                        + ") must be at most a third of the ttl (" + ttl + "): the confirmation would use up the"
                        + " lease it confirms");
            }
            return new LockConfig(this);
        }
    }
}
