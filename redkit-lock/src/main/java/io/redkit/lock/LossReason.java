package io.redkit.lock;

/** Why a lease stopped being held. */
public enum LossReason {
    /** The watchdog's owner-checked extension found another token, or none: the lock expired or was taken. */
    EXTENSION_REFUSED,
    /** The watchdog's extension failed (timeout, Redis unreachable): the lease can no longer be vouched for. */
    EXTENSION_FAILED,
    /** The local validity (acquired-at + ttl − drift, on the monotonic clock) ran out before an extension. */
    VALIDITY_EXPIRED,
    /** The release found the key no longer ours. */
    RELEASE_FOUND_LOST,
    /**
     * The release failed (timed out: it may or may not have run; or could not be sent). The watchdog had already
     * stopped, so nothing vouches for the lease any more; the key expires by its TTL if it is still there.
     */
    RELEASE_FAILED,
    /** Not a loss: the holder released the lease itself; {@code ensureHeld()} afterwards says so. */
    RELEASED
}
