package io.redkit.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code redkit.limit.*}: the {@code Limits} bean (one breaker for all its limiters) and the limiters that
 * {@link RedkitLimiters} serves by name. Algorithm and policy names are redkit-limit's {@code Algorithm} and
 * {@code UnavailablePolicy} constants, kept as strings here so that this class loads without redkit-limit.
 */
public class RedkitLimitProperties {

    /** Key namespace: limit:{limiter:subject}. */
    private String namespace = "limit";

    /** How long a decision waits for Redis before the policy decides; unset: the client's request timeout. */
    private Duration timeout;

    /** The limiters, by name (1-64 of [A-Za-z0-9_.-]). */
    private final Map<String, Limiter> limiters = new LinkedHashMap<>();

    public String getNamespace() { return namespace; }
    public void setNamespace(String namespace) { this.namespace = namespace; }
    public Duration getTimeout() { return timeout; }
    public void setTimeout(Duration timeout) { this.timeout = timeout; }
    public Map<String, Limiter> getLimiters() { return limiters; }

    /** One limiter: an algorithm, one or more limits of distinct periods, and what it decides when Redis cannot. */
    public static class Limiter {

        /** GCRA (default: a token bucket, no window edge), FIXED_WINDOW, SLIDING_LOG or SLIDING_COUNTER. */
        private String algorithm = "GCRA";

        /** FAIL_OPEN or FAIL_CLOSED (required: there is no default, the service decides). */
        private String whenUnavailable;

        /** The limits checked together, e.g. 10 per 1s and 1000 per 1h. */
        private final List<Rate> limits = new ArrayList<>();

        public String getAlgorithm() { return algorithm; }
        public void setAlgorithm(String algorithm) { this.algorithm = algorithm; }
        public String getWhenUnavailable() { return whenUnavailable; }
        public void setWhenUnavailable(String whenUnavailable) { this.whenUnavailable = whenUnavailable; }
        public List<Rate> getLimits() { return limits; }
    }

    /** One limit: permits per period, and for GCRA an optional burst. */
    public static class Rate {

        /** Permits per period (required). */
        private long permits;

        /** The period or window (required), whole milliseconds from 1ms to 366 days. */
        private Duration period;

        /** GCRA only: how many permits may pass at once; unset: the permits. */
        private Long burst;

        public long getPermits() { return permits; }
        public void setPermits(long permits) { this.permits = permits; }
        public Duration getPeriod() { return period; }
        public void setPeriod(Duration period) { this.period = period; }
        public Long getBurst() { return burst; }
        public void setBurst(Long burst) { this.burst = burst; }
    }
}
