package io.redkit.stream.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How one worker is told to stop, and what its stop did. An interrupt only ever reaches the worker's thread
 * while it is inside the handler: interrupting it inside a Redis call would cut the call off and leave the
 * server blocked on a connection that goes back to the pool.
 */
final class WorkerControl {

    private volatile boolean stopping;
    private volatile boolean aborted;
    private volatile boolean hasDeadline;
    private volatile long deadlineNanos;
    private Thread thread;
    private boolean inHandler;
    private boolean interruptSent;
    final AtomicLong acknowledged = new AtomicLong();
    final AtomicLong interrupted = new AtomicLong();
    final AtomicLong handedBack = new AtomicLong();

    synchronized void bind(Thread worker) {
        this.thread = worker;
    }

    boolean stopping() {
        return stopping;
    }

    boolean aborted() {
        return aborted;
    }

    /** Whether a graceful stop's deadline has passed at {@code now}: start nothing more. */
    boolean pastDeadline(long now) {
        return stopping && (aborted || hasDeadline && now - deadlineNanos >= 0);
    }

    /** Asks for a graceful stop by {@code deadline} (monotonic nanos). */
    synchronized void stop(long deadline) {
        if (!stopping) {
            deadlineNanos = deadline;
            hasDeadline = true;
            stopping = true;
        }
        notifyAll();
    }

    /** Stops at once: a handler running is interrupted; nothing more is acknowledged. */
    synchronized void abort() {
        aborted = true;
        stopping = true;
        interruptHandler();
        notifyAll();
    }

    /** Interrupts the handler if one is running (after a graceful stop's deadline). */
    synchronized void interruptHandler() {
        if (inHandler && thread != null) {
            interruptSent = true;
            thread.interrupt();
        }
    }

    synchronized void enterHandler() {
        inHandler = true;
    }

    /**
     * Leaves the handler; returns whether this control interrupted it (the handler may have consumed the flag by
     * throwing InterruptedException), and clears the flag so that the Redis calls after it are not cut off.
     */
    synchronized boolean exitHandler() {
        inHandler = false;
        boolean sent = interruptSent;
        interruptSent = false;
        Thread.interrupted();
        return sent;
    }

    /** Waits up to {@code nanos}, or until a stop. */
    synchronized void await(long nanos) {
        if (stopping || nanos <= 0) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.timedWait(this, nanos);
        } catch (InterruptedException e) {
            // The thread is the worker's own and only this class interrupts it, through the flags above; keeping
            // the flag would make the next Redis call fail at once, and the loop spin.
        }
    }
}
