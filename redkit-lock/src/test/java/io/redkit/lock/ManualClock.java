package io.redkit.lock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.redkit.RedkitClock;

/** A client clock whose monotonic time moves only when a test says so; the wall clock is the real one. */
final class ManualClock implements RedkitClock {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long wallMillis() {
        return System.currentTimeMillis();
    }
}
