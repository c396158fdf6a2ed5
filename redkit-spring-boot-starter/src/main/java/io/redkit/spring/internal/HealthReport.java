package io.redkit.spring.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.redkit.cache.CacheHealth;
import io.redkit.session.SessionHealth;
import io.redkit.spring.RedkitCacheManager;
import io.redkit.spring.RedkitQueues;
import io.redkit.spring.RedkitSessions;
import io.redkit.stream.StreamQueue;

/**
 * What the health contributors report, apart from Spring Boot's health types: Boot 4 moved them
 * ({@code org.springframework.boot.health.contributor}, Boot 3: {@code org.springframework.boot.actuate.health}), so
 * each starter's {@code io.redkit.spring.health} classes only turn a report into its Boot line's {@code Health}.
 *
 * @param status the status code: UP, DOWN, OUT_OF_SERVICE, UNKNOWN or {@link #DEGRADED}
 * @param details the details, in order
 */
public record HealthReport(String status, Map<String, Object> details) {

    /** Reads skip Redis and go to the source (a cache), or fewer workers run than were started (a queue). */
    public static final String DEGRADED = "DEGRADED";
    /** The property Spring Boot's health endpoint reads its status order from. */
    public static final String STATUS_ORDER_PROPERTY = "management.endpoint.health.status.order";
    /** The order the starter sets when the application sets none: DEGRADED outranks UP. */
    public static final String STATUS_ORDER = "DOWN,OUT_OF_SERVICE,DEGRADED,UP,UNKNOWN";

    /** The caches: UP while they use Redis, DEGRADED while a breaker sends reads to the source; never DOWN. */
    public static HealthReport caches(RedkitCacheManager caches) {
        boolean degraded = false;
        Map<String, Object> details = new LinkedHashMap<>();
        for (Map.Entry<String, CacheHealth> e : caches.health().entrySet()) {
            CacheHealth h = e.getValue();
            degraded |= !h.isHealthy();
            details.put(e.getKey(), Map.of("status", h.status().name(), "breaker", h.breaker().name()));
        }
        return new HealthReport(degraded ? DEGRADED : "UP", details);
    }

    /** The queues' workers: DOWN when started and none run, DEGRADED while fewer run than were started. */
    public static HealthReport queues(RedkitQueues queues) {
        String status = "UP";
        Map<String, Object> details = new LinkedHashMap<>();
        for (Map.Entry<String, StreamQueue<?>> q : queues.built().entrySet()) {
            StreamQueue.WorkerCount count = q.getValue().workerCount();
            details.put(q.getKey(), Map.of("workers", count.started(), "running", count.running(), "persistence",
                    q.getValue().persistence().name()));
            if (count.started() > 0 && count.running() == 0) {
                status = "DOWN";
            } else if (count.degraded() && !status.equals("DOWN")) {
                status = DEGRADED;
            }
        }
        return new HealthReport(status, details);
    }

    /** The session store: UP while READY, OUT_OF_SERVICE while NOT_READY, UNKNOWN until it is built. */
    public static HealthReport sessions(RedkitSessions sessions) {
        Optional<SessionHealth> store = sessions.health();
        if (store.isEmpty()) {
            return new HealthReport("UNKNOWN", Map.of("store", "not built yet"));
        }
        SessionHealth h = store.get();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("namespace", sessions.config().namespace());
        details.put("since", h.since().toString());
        if (h.cause() != null) {
            details.put("cause", h.cause());
        }
        return new HealthReport(h.isReady() ? "UP" : "OUT_OF_SERVICE", details);
    }

    /**
     * Gives {@link #STATUS_ORDER_PROPERTY} the default {@link #STATUS_ORDER}, last among the property sources, when
     * the application sets none (Spring Boot's aggregator ignores a status missing from the order).
     */
    public static void defaultStatusOrder(ConfigurableEnvironment environment) {
        if (!environment.containsProperty(STATUS_ORDER_PROPERTY)) {
            environment.getPropertySources().addLast(new MapPropertySource("redkitHealthStatusOrder",
                    Map.of(STATUS_ORDER_PROPERTY, STATUS_ORDER)));
        }
    }
}
