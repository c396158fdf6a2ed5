package io.redkit.cache;

/**
 * How a near cache learns that its copies are stale.
 */
public enum NearCacheInvalidation {
    /**
     * The server tells it ({@code CLIENT TRACKING}, Redis 6+ and Valkey): the near cache reads on a connection of
     * its own, the server remembers the keys read there and pushes an invalidation when any client changes one, or
     * when it expires or is evicted. Writes by another language, a script or {@code redis-cli} count. Costs server
     * memory: one entry per key and reader in the tracking table, bounded by {@code tracking-table-max-keys} (when it
     * is full the server invalidates old entries early: more misses, never stale reads).
     */
    TRACKING,
    /**
     * The server announces every change of a key under the cache's namespace, read or not ({@code BCAST PREFIX}):
     * nothing is kept per reader on the server, but each instance hears of every write to the cache. For many
     * instances over a small key space.
     */
    TRACKING_BCAST,
    /**
     * redkit's own channel: only invalidations made through redkit reach the other instances; a foreign write is
     * seen when the near entry's TTL ends. For servers that refuse {@code CLIENT TRACKING}.
     */
    PUBSUB
}
