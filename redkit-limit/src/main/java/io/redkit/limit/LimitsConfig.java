package io.redkit.limit;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import io.redkit.ReadFrom;
import io.redkit.RedisBreaker;
import io.redkit.Validate;

/**
 * How the limiters of one {@link Limits} reach Redis: their key namespace, how long a decision may wait for
 * Redis, and the breaker that stops them waiting at all while Redis keeps failing. Immutable; built by
 * {@link #builder()}, which validates each value as it is set and names the bad one. Every default is the
 * constant next to its accessor.
 */
public final class LimitsConfig {

    /** Key namespace: keys are {@code limit:{<limiter>:<subject>}:<algorithm>.<period ms>}. */
    public static final String DEFAULT_NAMESPACE = "limit";
    /** The breaker judges the last this-many decisions; it opens when half of them found Redis unavailable. */
    public static final int DEFAULT_BREAKER_WINDOW = 10;
    /**
     * How often an open breaker probes Redis in the background (no decision ever waits for a probe). Short,
     * because while it is open a fail-open limiter limits nothing and a fail-closed one refuses everyone: with three
     * answers to close, limiting is back within about a second of Redis answering.
     */
    public static final Duration DEFAULT_BREAKER_PROBE_INTERVAL = Duration.ofMillis(200);
    /** Background probes that must answer in a row before the breaker closes. */
    public static final int DEFAULT_BREAKER_PROBES_TO_CLOSE = 3;
    /** The longest decision timeout accepted; a limiter exists to answer a request quickly. */
    public static final Duration MAX_TIMEOUT = Duration.ofSeconds(10);

    private final String namespace;
    private final Duration timeout;
    private final int breakerWindow;
    private final Duration breakerProbeInterval;
    private final int breakerProbesToClose;

    private LimitsConfig(Builder b) {
        this.namespace = b.namespace;
        this.timeout = b.timeout;
        this.breakerWindow = b.breakerWindow;
        this.breakerProbeInterval = b.breakerProbeInterval;
        this.breakerProbesToClose = b.breakerProbesToClose;
    }

    /** A builder with every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** Every default. */
    public static LimitsConfig defaults() {
        return builder().build();
    }

    /** Key namespace; default {@value #DEFAULT_NAMESPACE}. */
    public String namespace() { return namespace; }

    /**
     * How long a decision waits for Redis before its limiter's policy decides; empty (the default) for the
     * client's request timeout ({@code Redkit.commands()}, 300 ms unless configured).
     */
    public Optional<Duration> timeout() { return Optional.ofNullable(timeout); }

    /** The breaker's window of decisions; default {@value #DEFAULT_BREAKER_WINDOW}. */
    public int breakerWindow() { return breakerWindow; }

    /** How often the open breaker probes Redis; default {@link #DEFAULT_BREAKER_PROBE_INTERVAL}. */
    public Duration breakerProbeInterval() { return breakerProbeInterval; }

    /** Probe answers in a row that close the breaker; default {@value #DEFAULT_BREAKER_PROBES_TO_CLOSE}. */
    public int breakerProbesToClose() { return breakerProbesToClose; }

    @Override
    public String toString() {
        return "LimitsConfig[namespace=" + namespace + ", timeout=" + (timeout == null ? "request profile" : timeout)
                + ", breakerWindow=" + breakerWindow + ", breakerProbes=" + breakerProbeInterval + "x" + breakerProbesToClose + "]";
    }

    /** Builds a {@link LimitsConfig}; each setter rejects a bad value at once, naming it. */
    public static final class Builder {
        private String namespace = DEFAULT_NAMESPACE;
        private Duration timeout;
        private int breakerWindow = DEFAULT_BREAKER_WINDOW;
        private Duration breakerProbeInterval = DEFAULT_BREAKER_PROBE_INTERVAL;
        private int breakerProbesToClose = DEFAULT_BREAKER_PROBES_TO_CLOSE;

        private Builder() {
        }

        /** Key namespace: 1-64 of {@code [A-Za-z0-9_.-]}. */
        public Builder namespace(String value) {
            this.namespace = Validate.name("namespace", value, 64);
            return this;
        }

        /** How long a decision waits for Redis: 1 ms to {@link #MAX_TIMEOUT}. */
        public Builder timeout(Duration value) {
            this.timeout = Validate.within("timeout", value, Duration.ofMillis(1), MAX_TIMEOUT);
            return this;
        }

        /** The breaker's window of decisions: 2 to 1000. */
        public Builder breakerWindow(int value) {
            if (value < 2 || value > 1000) {
                throw new IllegalArgumentException("breakerWindow must be 2-1000, was " + value);
            }
            this.breakerWindow = value;
            return this;
        }

        /** How often the open breaker probes Redis (10 ms - 10 s), and how many answers in a row close it (1 - 100). */
        public Builder breakerProbes(Duration interval, int probesToClose) {
            this.breakerProbeInterval = Validate.within("breaker probe interval", interval,
                    RedisBreaker.MIN_PROBE_INTERVAL, RedisBreaker.MAX_PROBE_INTERVAL);
            if (probesToClose < 1 || probesToClose > 100) {
                throw new IllegalArgumentException("probesToClose must be 1-100, was " + probesToClose);
            }
            this.breakerProbesToClose = probesToClose;
            return this;
        }

        /**
         * Limits read and write the master only; anything else is refused here. A replica lags its master, so a
         * count read there would let through permits the master has already given.
         *
         * @throws IllegalArgumentException for anything but {@link ReadFrom#MASTER}
         */
        public Builder readFrom(ReadFrom value) {
            Validate.masterOnly("rate limits", value, "a replica lags, and would let through what the master"
                    + " already refused");
            return this;
        }

        /** Builds the configuration. */
        public LimitsConfig build() {
            return new LimitsConfig(this);
        }
    }
}
