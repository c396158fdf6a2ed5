package io.redkit.spring.health;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

import io.redkit.spring.RedkitCacheManager;
import io.redkit.spring.internal.HealthReport;

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
    public static final Status DEGRADED = new Status(HealthReport.DEGRADED,
            "reads go to the source while Redis is skipped");

    private final RedkitCacheManager caches;

    /** The health of {@code caches}. */
    public RedkitCacheHealthIndicator(RedkitCacheManager caches) {
        this.caches = caches;
    }

    @Override
    public Health health() {
        return health(HealthReport.caches(caches));
    }

    /** {@code report} as this Boot line's {@link Health}. */
    static Health health(HealthReport report) {
        Status status = report.status().equals(HealthReport.DEGRADED) ? DEGRADED : new Status(report.status());
        return Health.status(status).withDetails(report.details()).build();
    }
}
