package io.redkit.cache;

/**
 * What a health endpoint reports for a cache: a cache that skips Redis still answers from the source, so it is
 * DEGRADED, never DOWN; and whether Redis is being probed back.
 *
 * @param status HEALTHY while Redis is used, DEGRADED while reads go to the source
 * @param breaker the breaker in front of Redis: CLOSED, OPEN (skipping Redis, probing it in the background),
 *     HALF_OPEN (probes answered; closing after a few more)
 */
public record CacheHealth(Status status, Breaker breaker) {

    /** Whether the cache uses Redis. */
    public enum Status {
        /** Redis is used. */
        HEALTHY,
        /** Redis is skipped: reads go to the source, no user read waits for Redis. */
        DEGRADED
    }

    /** The breaker's state as a health endpoint shows it. */
    public enum Breaker {
        /** Redis answers; reads use it. */
        CLOSED,
        /** Redis failed; reads skip it while a background probe asks whether it is back. */
        OPEN,
        /** The background probe got answers; the breaker closes after a few in a row. */
        HALF_OPEN
    }

    /** Whether reads go to Redis. */
    public boolean isHealthy() {
        return status == Status.HEALTHY;
    }

    /** Whether Redis is skipped but already answering probes again. */
    public boolean isProbing() {
        return breaker == Breaker.HALF_OPEN;
    }
}
