package io.redkit.session;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.redkit.RedkitClock;

/** A clock whose wall time a test moves by hand; monotonic time stays real (Redis keeps its TTLs in real time). */
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
