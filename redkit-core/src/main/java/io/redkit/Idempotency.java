package io.redkit;

/**
 * Whether running a command twice has the same effect as running it once; only idempotent commands are retried
 * after an outcome that may have run ({@link Outcome#UNKNOWN}).
 */
public enum Idempotency {
    /** GET, SET without a condition, DEL, EXPIRE, an owner-checked release: safe to send again. */
    IDEMPOTENT,
    /** INCR, XADD, LPUSH, a counting script: sending it again after a timeout may apply it twice. */
    NON_IDEMPOTENT
}
