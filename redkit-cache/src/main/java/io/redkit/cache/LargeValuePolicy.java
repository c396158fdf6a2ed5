package io.redkit.cache;

/** What happens to a value whose envelope is still above the size limit after compression. */
public enum LargeValuePolicy {
    /** Serve the loaded value but do not cache it (counted as {@code redkit.cache.large{action=skipped}}). */
    SKIP,
    /** Throw {@link ValueTooLargeException} to the caller (counted as {@code action=refused}). */
    FAIL
}
