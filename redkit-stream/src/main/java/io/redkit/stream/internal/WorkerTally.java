package io.redkit.stream.internal;

import java.util.concurrent.atomic.AtomicInteger;

/** How many workers this process started on a queue and has not stopped, and how many of them run now. */
final class WorkerTally {

    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();

    void add() {
        started.incrementAndGet();
        running.incrementAndGet();
    }

    /** A worker died and waits to restart. */
    void down() {
        running.decrementAndGet();
    }

    /** A worker restarted after a death. */
    void up() {
        running.incrementAndGet();
    }

    /** A worker stopped for good (closed); {@code wasRunning} when it was not waiting to restart. */
    void remove(boolean wasRunning) {
        started.decrementAndGet();
        if (wasRunning) {
            running.decrementAndGet();
        }
    }

    int started() {
        return started.get();
    }

    int running() {
        return running.get();
    }
}
