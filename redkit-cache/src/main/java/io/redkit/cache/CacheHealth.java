package io.redkit.cache;

/**
 * What a health endpoint reports for a cache: a cache that skips Redis still answers from the source, so it is
 * DEGRADED, never DOWN.
 */
public enum CacheHealth {
    /** Redis is used: the breaker is closed. */
    HEALTHY,
    /** Redis is skipped or probed (breaker open or half-open): reads go to the source. */
    DEGRADED
}
