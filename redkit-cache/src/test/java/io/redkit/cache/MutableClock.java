package io.redkit.cache;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.redkit.RedkitClock;

/** A client clock a test moves by hand: the wall clock jumps, the monotonic one runs on. */
final class MutableClock implements RedkitClock {

    private final AtomicLong offsetMillis = new AtomicLong();

    void advance(Duration by) {
        offsetMillis.addAndGet(by.toMillis());
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long wallMillis() {
        return System.currentTimeMillis() + offsetMillis.get();
    }
}
