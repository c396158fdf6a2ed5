package io.redkit.lock;

import java.time.Duration;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/**
 * The lock was free and the master took it, but fewer replicas than required confirmed it within the timeout
 * ({@link LockConfig#replicaAcks()}): a failover now could promote a replica without it and hand the lock to a
 * second holder. So it was released again (owner-checked) and no lease was given; nothing was done. Thrown rather
 * than reported as {@code Optional.empty()}, which means "someone else holds it": here nobody may, and the cause
 * is a replica that is down, lagging or cut off, which waiting for a release would not cure. Retrying is the
 * caller's decision.
 */
public final class LockNotReplicatedException extends RedkitException {

    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final int required;
    private final int acknowledged;

    /** Creates the exception for the named lock, the replicas that had to confirm, those that did, and the wait. */
    public LockNotReplicatedException(String lockName, int required, int acknowledged, Duration timeout) {
        super("lock '" + lockName + "' was taken on the master but confirmed by " + acknowledged + " of " + required
                + " replicas within " + timeout.toMillis() + " ms; released again, not acquired (a failover could"
                + " hand it to another holder); not executed", Outcome.NOT_EXECUTED, null);
        this.lockName = lockName;
        this.required = required;
        this.acknowledged = acknowledged;
    }

    /**
     * Creates the exception for a confirmation that could not be asked for at all ({@code WAIT} timed out or its
     * connection failed, the topology could not be read): {@link #required()} is then -1, and the cause says why.
     */
    public LockNotReplicatedException(String lockName, Duration timeout, RedkitException cause) {
        super("lock '" + lockName + "' was taken on the master but its replicas could not be asked to confirm it"
                + " within " + timeout.toMillis() + " ms (" + cause.getMessage() + "); released again, not acquired;"
                + " not executed", Outcome.NOT_EXECUTED, cause);
        this.lockName = lockName;
        this.required = -1;
        this.acknowledged = 0;
    }

    /** The lock's name. */
    public String lockName() {
        return lockName;
    }

    /** How many replicas had to confirm; -1 when they could not be asked (see the cause). */
    public int required() {
        return required;
    }

    /** How many did within the timeout. */
    public int acknowledged() {
        return acknowledged;
    }
}
