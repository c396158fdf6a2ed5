package io.redkit;

/**
 * Whether running a command twice has the same effect as running it once; only idempotent commands are retried
 * after an outcome that may have run ({@link Outcome#UNKNOWN}).
 */
public enum Idempotency {
    /**
     * GET, SET without a condition, DEL, EXPIRE: running it twice has the effect of running it once, so it may be
     * sent again. The reply of a call that was retried describes the last run only: a DEL that ran, timed out and
     * ran again says 0 keys. A command whose reply carries the meaning the caller acts on (a lock release's 1 or
     * 0: released or lost) must be declared {@link #NON_IDEMPOTENT}, so that it is never retried after it may
     * have run.
     */
    IDEMPOTENT,
    /** INCR, XADD, LPUSH, a counting script: sending it again after a timeout may apply it twice. */
    NON_IDEMPOTENT
}
