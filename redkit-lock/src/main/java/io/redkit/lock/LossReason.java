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
    RELEASE_FOUND_LOST
}
