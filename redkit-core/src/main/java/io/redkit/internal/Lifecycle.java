package io.redkit.internal;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

import io.redkit.Outcome;
import io.redkit.RedisUnavailableException;

/**
 * Counts calls in flight so that {@code Redkit.close()} can let them finish before the connections go, and
 * refuses new calls once closing has begun.
 */
public final class Lifecycle {

    private final LongAdder inFlight = new LongAdder();
    private volatile boolean closed;

    /** Registers a call; fails at once when the client is closed. */
    public void enter(String command) {
        if (closed) {
            throw new RedisUnavailableException(command + " not sent: this Redkit is closed", Outcome.NOT_EXECUTED,
                    null);
        }
        inFlight.increment();
    }

    /** Unregisters a call. */
    public void exit() {
        inFlight.decrement();
    }

    /** Whether closing has begun. */
    public boolean isClosed() {
        return closed;
    }

    /** Refuses new calls and waits up to {@code timeout} for those in flight; true when all finished. */
    public boolean closeAndDrain(Duration timeout) {
        closed = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (inFlight.sum() > 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
