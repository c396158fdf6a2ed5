package io.redkit.lock.internal;

import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with "equal jitter" between two bounds, so that waiters spread out instead of spinning. */
final class Backoff {

    private final long minNanos;
    private final long maxNanos;
    private long ceiling;

    Backoff(long minNanos, long maxNanos) {
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
        this.ceiling = minNanos;
    }

    /** The next pause: at least the minimum, at most the current ceiling, which doubles up to the maximum. */
    long nextNanos() {
        long half = ceiling / 2;
        long pause = Math.max(minNanos, half + ThreadLocalRandom.current().nextLong(half + 1));
        ceiling = Math.min(maxNanos, ceiling * 2);
        return pause;
    }
}
