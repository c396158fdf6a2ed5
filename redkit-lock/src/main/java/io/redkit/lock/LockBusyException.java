package io.redkit.lock;

import java.time.Duration;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/**
 * {@link Lock#acquire()} or {@link Lock#runLocked} waited its whole wait and the lock was still held by someone
 * else. Nothing was done; the {@code tryAcquire} forms report the same thing as an empty result instead.
 */
public final class LockBusyException extends RedkitException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception for the named lock and the wait that ran out. */
    public LockBusyException(String lockName, Duration waited) {
        super("lock '" + lockName + "' is held by someone else; gave up after waiting " + waited.toMillis()
                + " ms; not executed", Outcome.NOT_EXECUTED, null);
    }
}
