package io.redkit.lock;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/**
 * The lease is no longer held. Work done under it may have overlapped with another holder's, so its outcome is
 * {@link Outcome#UNKNOWN}: check it against the resource (a fenced write refuses what came too late). The one
 * exception is {@link LossReason#RELEASED}: {@code ensureHeld()} after the holder's own release, where nothing
 * overlapped and nothing was done ({@link Outcome#NOT_EXECUTED}).
 */
public final class LockLostException extends RedkitException {

    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final LossReason reason;

    /** Creates the exception for the named lock and why it was lost. */
    public LockLostException(String lockName, LossReason reason, Throwable cause) {
        super(message(lockName, reason), reason == LossReason.RELEASED ? Outcome.NOT_EXECUTED : Outcome.UNKNOWN,
                cause);
        this.lockName = lockName;
        this.reason = reason;
    }

    private static String message(String lockName, LossReason reason) {
        if (reason == LossReason.RELEASED) {
            return "lock '" + lockName + "' was released by this holder and is not held any more; acquire it again"
                    + " before working under it";
        }
        return "lock '" + lockName + "' was lost (" + reason + "); work under it may have overlapped with another"
                + " holder: outcome UNKNOWN";
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
