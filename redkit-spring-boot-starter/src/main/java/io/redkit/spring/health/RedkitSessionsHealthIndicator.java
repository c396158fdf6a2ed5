package io.redkit.spring.health;

import java.util.Optional;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import io.redkit.session.SessionHealth;
import io.redkit.spring.RedkitSessions;

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
        Optional<SessionHealth> store = sessions.health();
        if (store.isEmpty()) {
            return Health.unknown().withDetail("store", "not built yet").build();
        }
        SessionHealth h = store.get();
        Health.Builder health = Health.status(h.isReady() ? Status.UP : Status.OUT_OF_SERVICE)
                .withDetail("namespace", sessions.config().namespace())
                .withDetail("since", h.since().toString());
        return h.cause() == null ? health.build() : health.withDetail("cause", h.cause()).build();
    }
}
