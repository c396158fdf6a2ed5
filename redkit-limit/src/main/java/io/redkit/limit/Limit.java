package io.redkit.limit;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Objects;

import io.redkit.Validate;

/**
 * One rate limit: an {@link Algorithm}, how many permits per period, and for GCRA the burst. Immutable and
 * validated when built, so that a bad limit fails where it is written, naming the bad value, and never on a
 * request. Periods are whole milliseconds from 1 ms to {@link #MAX_PERIOD}; the scripts count in microseconds of
 * the server's clock with whole numbers below 2^52, and each factory refuses a limit whose arithmetic would not
 * fit.
 */
public final class Limit {

    /** The longest period accepted; longer is a mistake, and keeps every script's arithmetic exact. */
    public static final Duration MAX_PERIOD = Duration.ofDays(366);
    /** The most permits a fixed-window or GCRA limit may have per period. */
    public static final long MAX_PERMITS = 1L << 40;
    /** The most permits a sliding log may hold: it keeps one sorted-set member per permit of its window. */
    public static final long MAX_SLIDING_LOG_PERMITS = 10_000;
    /** Every whole number a script computes stays below this (Lua numbers are doubles, whole below 2^53). */
    static final long MAX_EXACT = 1L << 52;

    private final Algorithm algorithm;
    private final long permits;
    private final Duration period;
    private final long burst;

    private Limit(Algorithm algorithm, long permits, Duration period, long burst) {
        this.algorithm = algorithm;
        this.permits = permits;
        this.period = period;
        this.burst = burst;
    }

    /** At most {@code permits} in each window of length {@code window}, windows aligned to the Unix epoch. */
    public static Limit fixedWindow(long permits, Duration window) {
        return new Limit(Algorithm.FIXED_WINDOW, permits("permits", permits, MAX_PERMITS), period(window), permits);
    }

    /** At most {@code permits} in any span of length {@code window}, exactly (one sorted-set member per permit). */
    public static Limit slidingLog(long permits, Duration window) {
        return new Limit(Algorithm.SLIDING_LOG, permits("permits", permits, MAX_SLIDING_LOG_PERMITS), period(window),
                permits);
    }

    /** About {@code permits} in any span of length {@code window}, from two weighted fixed-window counts. */
    public static Limit slidingCounter(long permits, Duration window) {
        long p = permits("permits", permits, MAX_PERMITS);
        Duration w = period(window);
        if (p > MAX_EXACT / w.toMillis()) {
            throw new IllegalArgumentException("a sliding counter's permits × window in ms must stay below 2^52, was "
                    + p + " × " + w.toMillis() + "; use a fixed window for a quota this large");
        }
        return new Limit(Algorithm.SLIDING_COUNTER, p, w, p);
    }

    /** GCRA at {@code permits} per {@code period}, with a burst of the same size: a token bucket of that many. */
    public static Limit gcra(long permits, Duration period) {
        return gcra(permits, period, permits);
    }

    /**
     * GCRA at {@code permits} per {@code period}, letting {@code burst} through at once after a quiet spell: a
     * token bucket of {@code burst} permits refilled at {@code permits / period}.
     */
    public static Limit gcra(long permits, Duration period, long burst) {
        long p = permits("permits", permits, MAX_PERMITS);
        Duration d = period(period);
        long b = permits("burst", burst, MAX_PERMITS);
        long micros = d.toNanos() / 1000;
        long step = micros / BigInteger.valueOf(micros).gcd(BigInteger.valueOf(p)).longValue();
        if (b > MAX_EXACT / step) {
            throw new IllegalArgumentException("a GCRA burst × (period / permits) must stay below 2^52 µs, was burst "
                    + b + " at " + p + " per " + d + "; lower the burst or use a fixed window");
        }
        return new Limit(Algorithm.GCRA, p, d, b);
    }

    /** How this limit counts. */
    public Algorithm algorithm() {
        return algorithm;
    }

    /** Permits per period (for GCRA, the rate: permits per period). */
    public long permits() {
        return permits;
    }

    /** The window, or for GCRA the period of the rate. */
    public Duration period() {
        return period;
    }

    /**
     * The most permits one call may take and what {@code RateLimit-Limit} reports: the burst for GCRA, the
     * permits per window otherwise.
     */
    public long capacity() {
        return burst;
    }

    private static long permits(String field, long value, long max) {
        if (value < 1) {
            throw new IllegalArgumentException(field + " must be at least 1, was " + value);
        }
        if (value > max) {
            throw new IllegalArgumentException(field + " must be at most " + max + ", was " + value);
        }
        return value;
    }

    private static Duration period(Duration value) {
        Validate.positive("period", value, MAX_PERIOD);
        if (value.toNanos() % 1_000_000 != 0) {
            throw new IllegalArgumentException("period must be a whole number of milliseconds, was " + value);
        }
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Limit l && algorithm == l.algorithm && permits == l.permits && burst == l.burst
                && period.equals(l.period);
    }

    @Override
    public int hashCode() {
        return Objects.hash(algorithm, permits, period, burst);
    }

    /** {@code gcra 100/PT1S burst 20}, {@code fixed 1000/PT1H}. */
    @Override
    public String toString() {
        return algorithm.code() + " " + permits + "/" + period + (algorithm == Algorithm.GCRA && burst != permits
                ? " burst " + burst : "");
    }
}
