package io.redkit;

import java.util.concurrent.RejectedExecutionException;

/**
 * The timer of a {@link Redkit}, shared by Lettuce's command timeouts and every feature's deadlines (a lock's
 * watchdog, a lease's validity). One thread for the whole client, stopped by {@link Redkit#close()}. Scheduling
 * and cancelling are cheap and take no lock, because almost every timeout is cancelled long before it fires. A
 * task fires up to {@link #tickNanos()} late and runs on the timer's one thread: it must be short and never block,
 * so a feature hands real work to an executor of its own.
 */
public interface RedkitTimer {

    /** A scheduled task. */
    interface Scheduled {
        /** Cancels the task if it has not run yet; true when this call cancelled it. */
        boolean cancel();
    }

    /**
     * Runs {@code task} on the timer thread after {@code delayNanos} (zero or negative: at the next tick).
     *
     * @throws RejectedExecutionException once the client is closed
     */
    Scheduled schedule(Runnable task, long delayNanos);

    /** How late a task may fire: the timer's tick. */
    long tickNanos();
}
