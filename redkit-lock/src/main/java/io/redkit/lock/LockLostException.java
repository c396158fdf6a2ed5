package io.redkit.lock;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/**
 * The lease is no longer held. Work done under it may have overlapped with another holder's, so its outcome is
 * {@link Outcome#UNKNOWN}: check it against the resource (a fenced write refuses what came too late).
 */
public final class LockLostException extends RedkitException {

    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final LossReason reason;

    /** Creates the exception for the named lock and why it was lost. */
    public LockLostException(String lockName, LossReason reason, Throwable cause) {
        super("lock '" + lockName + "' was lost (" + reason + "); work under it may have overlapped with another"
                + " holder: outcome UNKNOWN", Outcome.UNKNOWN, cause);
        this.lockName = lockName;
        this.reason = reason;
    }

    /** The lock's name. */
    public String lockName() {
        return lockName;
    }

    /** Why the lease was lost. */
    public LossReason reason() {
        return reason;
    }
}
