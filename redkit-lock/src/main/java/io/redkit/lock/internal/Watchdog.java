package io.redkit.lock.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.redkit.RedkitTimer;

/**
 * The timers of every lease of one {@link DefaultLocks}: extensions at ttl/3 and validity deadlines, on the
 * client's {@link RedkitTimer} (cheap to schedule and cancel: almost every timer is cancelled by a release long
 * before it fires). What fires runs on this watchdog's one thread, never on the timer's: extensions, their
 * replies and the loss signals they raise are serialised there. No user code runs on it: {@code onLost} callbacks
 * and {@code lost()} completions go to the callback executor, so one slow callback cannot delay another lease's
 * extension.
 */
final class Watchdog implements AutoCloseable {

    private final RedkitTimer timer;
    private final ThreadPoolExecutor executor;

    Watchdog(RedkitTimer timer, String threadName) {
        this.timer = timer;
        this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs {@code task} on the watchdog thread after {@code delayNanos} (up to one timer tick later).
     *
     * @throws RejectedExecutionException once closed, or once the client's timer has stopped
     */
    RedkitTimer.Scheduled schedule(Runnable task, long delayNanos) {
        if (executor.isShutdown()) {
            throw new RejectedExecutionException("Locks closed");
        }
        return timer.schedule(() -> {
            try {
                executor.execute(task);
            } catch (RejectedExecutionException closed) {
                // closed meanwhile: leases of closed Locks are not watched any more
            }
        }, delayNanos);
    }

    /** How late a timer may fire. */
    long tickNanos() {
        return timer.tickNanos();
    }

    /** The watchdog thread, for replies that must be handled in order with the timers. */
    Executor thread() {
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
