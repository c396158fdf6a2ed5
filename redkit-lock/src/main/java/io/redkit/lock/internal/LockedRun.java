package io.redkit.lock.internal;

import io.redkit.RedkitException;
import io.redkit.lock.LockLostException;
import io.redkit.lock.LockedWork;
import io.redkit.lock.LossReason;
import io.redkit.lock.ReleaseResult;

/** {@code runLocked}: the work on the caller's thread, interrupted on loss, released afterwards. */
final class LockedRun {

    private LockedRun() {
    }

    static <T> T run(DefaultLease lease, LockedWork<T> work) throws Exception {
        InterruptGate gate = new InterruptGate(Thread.currentThread());
        lease.onLost(e -> gate.interrupt());
        T result = null;
        Exception failure = null;
        try {
            result = work.run(lease);
        } catch (Exception e) {
            failure = e;
        } finally {
            if (gate.close()) {
                Thread.interrupted(); // our interrupt, not the caller's: do not leak it past runLocked
            }
        }
        ReleaseResult released;
        try {
            released = lease.release();
        } catch (RedkitException e) {
            if (failure != null) {
                e.addSuppressed(failure);
            }
            throw e;
        }
        // The lease's own state, not lost(): that future completes a moment later, on the callback executor.
        LockLostException loss = lease.lossOrNull();
        if (loss != null || released == ReleaseResult.LOST) {
            LockLostException e = loss != null ? loss : new LockLostException(lease.name(),
                    LossReason.RELEASE_FOUND_LOST, null);
            if (failure != null && failure != e) {
                e.addSuppressed(failure);
            }
            throw e;
        }
        if (failure != null) {
            throw failure;
        }
        return result;
    }

    /** Interrupts the worker on loss, but never after the work has returned. */
    private static final class InterruptGate {
        private final Thread worker;
        private boolean open = true;
        private boolean interrupted;

        InterruptGate(Thread worker) {
            this.worker = worker;
        }

        synchronized void interrupt() {
            if (open) {
                interrupted = true;
                worker.interrupt();
            }
        }

        /** Closes the gate; true when it interrupted the worker. */
        synchronized boolean close() {
            open = false;
            return interrupted;
        }
    }
}
