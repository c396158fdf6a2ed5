package io.redkit.cache;

/**
 * A snapshot of one cache instance's counters (the same numbers as its Micrometer meters), for labs and tests.
 *
 * @param hits reads answered by Redis (values and "not found" markers)
 * @param misses reads Redis could not answer (absent, undecodable, other schema version, Redis skipped)
 * @param nearHits reads answered by the near cache without Redis
 * @param loads calls of the loader (a batch load counts once)
 * @param errors Redis errors and timeouts
 * @param earlyRefreshes XFetch refreshes started before expiry
 * @param staleFillsPrevented write-backs refused because the key was invalidated (or its lease ran out) during the load
 * @param fillWaits misses that waited for another instance's load instead of loading
 */
public record CacheStats(long hits, long misses, long nearHits, long loads, long errors, long earlyRefreshes,
        long staleFillsPrevented, long fillWaits) {
}
