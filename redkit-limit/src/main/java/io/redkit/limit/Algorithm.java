package io.redkit.limit;

/**
 * How a {@link Limit} counts. Each is one Lua script ({@link LimitScripts}), one round trip per decision, on the
 * Redis server's clock. Which to pick when: redkit-limit's README, "Which algorithm, when".
 */
public enum Algorithm {

    /**
     * At most L permits in each window of the period, windows aligned to the Unix epoch on the server's clock;
     * one small string per subject and limit. Exact per window, but a client may take L at the end of one window
     * and L more at the start of the next. For quotas ("1000 per day") and coarse limits.
     */
    FIXED_WINDOW("fixed"),

    /**
     * At most L permits in any span of one period, exactly: a sorted set holding each permit taken in the last
     * period. Memory grows with L (one member per permit), so L is capped at
     * {@link Limit#MAX_SLIDING_LOG_PERMITS}. For small limits that must never burst past L in any period.
     */
    SLIDING_LOG("log"),

    /**
     * About L permits in any span of one period, from two fixed-window counts, the previous one weighted by
     * how much of it the span still covers; one small string per subject and limit. Its error comes from that
     * weighting, which assumes the previous window's permits came evenly: each fixed window holds at most L, but a
     * span of one period may hold more, up to 2L - 1 when the previous window's permits all came at its end (64
     * callers hammering L = 50 per 250 ms on a busy 2-core machine, where stalls make arrivals uneven, saw up to
     * 75).
     * For large limits where the log would cost too much memory and a fixed window's edge bursts matter.
     */
    SLIDING_COUNTER("counter"),

    /**
     * The generic cell rate algorithm: a token bucket of {@link Limit#capacity()} permits refilled at the limit's
     * rate, kept as one time per subject and limit. At any instant no more than burst + rate × elapsed permits
     * have been given. For request rates with an allowed burst; the cheapest of the four.
     */
    GCRA("gcra");

    private final String code;

    Algorithm(String code) {
        this.code = code;
    }

    /** The short name in keys and {@link Limit#toString()}: {@code fixed}, {@code log}, {@code counter}, {@code gcra}. */
    public String code() {
        return code;
    }
}
