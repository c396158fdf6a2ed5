package io.redkit.lock;

/** What a release found in Redis; LOST is never reported as success. */
public enum ReleaseResult {
    /** The key still held our owner token and is now deleted. */
    RELEASED,
    /**
     * The key no longer held our token: it expired, or another holder has it now. Someone may have worked under
     * the lock in parallel with us, so whatever we did under it must be checked (that is what fencing is for).
     */
    LOST
}
