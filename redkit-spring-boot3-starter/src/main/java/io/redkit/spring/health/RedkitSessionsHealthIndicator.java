package io.redkit.spring.health;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

import io.redkit.spring.RedkitSessions;
import io.redkit.spring.internal.HealthReport;

/**
 * Health of the session store: UP while it is READY; OUT_OF_SERVICE while it is NOT_READY, because sessions fail
 * closed (every request that needs one is answered 503), so the load balancer should send users elsewhere; UNKNOWN
 * until the application has built its store. A look older than a second makes the store PING Redis itself.
 */
public final class RedkitSessionsHealthIndicator implements HealthIndicator {

    private final RedkitSessions sessions;

    /** The health of the store {@code sessions} built. */
    public RedkitSessionsHealthIndicator(RedkitSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public Health health() {
        return RedkitCacheHealthIndicator.health(HealthReport.sessions(sessions));
    }
}
