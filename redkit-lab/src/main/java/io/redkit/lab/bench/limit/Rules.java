package io.redkit.lab.bench.limit;

import java.util.concurrent.TimeUnit;

/**
 * What each contender's limit permits over a stretch of calls ({@link Admissions.Rule}). Clocks are read to the
 * millisecond by some contenders (Bucket4j and Redisson stamp with the client's wall clock), so each span is
 * widened by {@link #SLACK_NANOS}: a limiter is only caught over-admitting by more than that granularity allows.
 */
final class Rules {

    static final long SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private Rules() {
    }

    /** A token bucket (GCRA, Bucket4j): full at first, then refilled at {@code perSecond}. */
    static Admissions.Rule tokenBucket(long burst, long perSecond) {
        return new Admissions.Rule() {
            @Override
            public long permitted(long nanos, long firstMicros, long lastMicros) {
                return burst + perSecond * (nanos + SLACK_NANOS) / SECOND;
            }

            @Override
            public String describe() {
                return "burst " + burst + " + " + perSecond + "/s × span";
            }
        };
    }

    /** At most {@code permits} in any span of one second (Redisson's log of permits, on the client's clock). */
    static Admissions.Rule slidingSecond(long permits) {
        return new Admissions.Rule() {
            @Override
            public long permitted(long nanos, long firstMicros, long lastMicros) {
                // Stamped in whole milliseconds, a permit may leave the log up to 1 ms early.
                return permits * ((nanos + SLACK_NANOS) / (SECOND - TimeUnit.MILLISECONDS.toNanos(1)) + 1);
            }

            @Override
            public String describe() {
                return permits + " per any 1 s span";
            }
        };
    }

    /** At most {@code permits} in each epoch-aligned second of the server's clock, counted from its stamps. */
    static Admissions.Rule fixedSecond(long permits) {
        return new Admissions.Rule() {
            @Override
            public long permitted(long nanos, long firstMicros, long lastMicros) {
                return permits * (lastMicros / 1_000_000 - firstMicros / 1_000_000 + 1);
            }

            @Override
            public String describe() {
                return permits + " per server-clock second touched";
            }
        };
    }
}
