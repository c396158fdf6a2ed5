package io.redkit.lock.internal;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;

/**
 * The timers of every lease of one {@link DefaultLocks}: extensions at ttl/3 and validity deadlines.
 *
 * <p>Almost every timer is cancelled long before it fires (a lease is usually released well inside its TTL), so
 * scheduling and cancelling must be cheap under contention. A {@code ScheduledThreadPoolExecutor} takes a lock
 * and often signals its thread on both (bench lock at 64 callers: about a tenth of the caller's CPU, and the
 * scheduler thread woken thousands of times a second). Netty's {@link HashedWheelTimer}, which Lettuce already
 * brings and uses for the same job (command timeouts), takes neither: a new timeout goes on a lock-free queue
 * and a cancel is a compare-and-set; its one thread wakes once a tick. The price is precision: a timeout fires up
 * to one tick late, so {@link #TICK_NANOS} is public to the lease, which signals validity loss up to a tick
 * early rather than late.
 *
 * <p>What fires runs on one executor thread, never on the wheel's: extensions, their replies and loss signals
 * (with the {@code onLost} callbacks they complete) are serialised there, and a slow callback delays only them.
 */
final class WatchdogTimer implements AutoCloseable {

    /** The wheel's tick: a timeout fires at most this late. Ten times finer than Lettuce's 100 ms default. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** One wheel for the process: its single thread only moves due work to the executors of the locks. */
    private static final HashedWheelTimer WHEEL = new HashedWheelTimer(r -> {
        Thread t = new Thread(r, "redkit-lock-timer");
        t.setDaemon(true);
        return t;
    }, TICK_NANOS, TimeUnit.NANOSECONDS, 512);

    private final ThreadPoolExecutor executor;

    WatchdogTimer(String threadName) {
        this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs {@code task} on the executor after {@code delayNanos} (up to one tick later).
     *
     * @throws RejectedExecutionException once closed
     */
    Timeout schedule(Runnable task, long delayNanos) {
        if (executor.isShutdown()) {
            throw new RejectedExecutionException("Locks closed");
        }
        return WHEEL.newTimeout(t -> {
            try {
                executor.execute(task);
            } catch (RejectedExecutionException closed) {
                // closed meanwhile: leases of closed Locks are not watched any more
            }
        }, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    }

    /** The executor that runs what fires, for replies that must be handled in the same order. */
    ThreadPoolExecutor executor() {
        return executor;
    }

    boolean isClosed() {
        return executor.isShutdown();
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
