package io.redkit.spring.health;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import io.redkit.cache.CacheHealth;
import io.redkit.spring.RedkitCacheManager;

/**
 * Health of the redkit caches: UP while they use Redis; {@link #DEGRADED} while a cache's breaker sends its reads to
 * the source (the service still answers, slower, and the database carries the load), never DOWN, because a cache
 * without Redis is a slower cache, not an outage. Details: each cache's status and breaker (OPEN while probing
 * fails, HALF_OPEN once Redis answers probes again).
 */
public final class RedkitCacheHealthIndicator implements HealthIndicator {

    /**
     * Reads skip Redis and go to the source. The starter orders it between OUT_OF_SERVICE and UP
     * ({@link HealthStatusOrder}), so it outranks UP in the aggregate and HTTP still answers 200.
     */
    public static final Status DEGRADED = new Status("DEGRADED", "reads go to the source while Redis is skipped");

    private final RedkitCacheManager caches;

    /** The health of {@code caches}. */
    public RedkitCacheHealthIndicator(RedkitCacheManager caches) {
        this.caches = caches;
    }

    @Override
    public Health health() {
        boolean degraded = false;
        Map<String, Object> details = new LinkedHashMap<>();
        for (Map.Entry<String, CacheHealth> e : caches.health().entrySet()) {
            CacheHealth h = e.getValue();
            degraded |= !h.isHealthy();
            details.put(e.getKey(), Map.of("status", h.status().name(), "breaker", h.breaker().name()));
        }
        return Health.status(degraded ? DEGRADED : Status.UP).withDetails(details).build();
    }
}
