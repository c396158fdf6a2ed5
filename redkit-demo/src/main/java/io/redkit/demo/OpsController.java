package io.redkit.demo;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.redkit.Redkit;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheHealth;
import io.redkit.cache.CacheStats;
import io.redkit.demo.Accounts.Account;
import io.redkit.session.SessionStore;
import io.redkit.stream.QueueStats;
import io.redkit.stream.StreamQueue;

/**
 * {@code GET /ops/stats}: what the ops page ({@code /ops.html}) shows, as JSON. Counters are this instance's; the
 * lock's state and the stream's ({@code lock.redis}, {@code stream.redis}) are read from Redis and the last report
 * from PostgreSQL, each on its own, so that one that cannot be read shows as {@code {"unavailable": "…"}} and the
 * rest still answers. Fences are JSON numbers: exact in JavaScript up to 2^53, which a microsecond-based fence
 * reaches in the year 2255.
 */
@RestController
public class OpsController {

    private final Redkit redkit;
    private final CacheAside<Long, Product> cache;
    private final ProductRepository products;
    private final RateLimitInterceptor rateLimit;
    private final ReportJob job;
    private final StreamQueue<OrderPlaced> queue;
    private final OrderService orders;
    private final FulfilmentWorker worker;
    private final SessionStore<Account> sessions;
    private final JdbcTemplate jdbc;
    private final Accounts accounts;
    private final String instance;

    public OpsController(Redkit redkit, CacheAside<Long, Product> productCache, ProductRepository products,
            RateLimitInterceptor rateLimit, ReportJob job, StreamQueue<OrderPlaced> orderQueue, OrderService orders,
            FulfilmentWorker worker, SessionStore<Account> sessions, JdbcTemplate jdbc, Accounts accounts,
            InstanceId instance) {
        this.accounts = accounts;
        this.redkit = redkit;
        this.cache = productCache;
        this.products = products;
        this.rateLimit = rateLimit;
        this.job = job;
        this.queue = orderQueue;
        this.orders = orders;
        this.worker = worker;
        this.sessions = sessions;
        this.jdbc = jdbc;
        this.instance = instance.value();
    }

    @GetMapping("/ops/stats")
    public Map<String, Object> stats() {
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("instance", instance);
        stats.put("time", Instant.now().toString());
        stats.put("cache", cache());
        stats.put("db", Map.of("productQueries", products.queries()));
        stats.put("lock", lock());
        stats.put("limiter", rateLimit.counts());
        stats.put("login", accounts.hashCounts());
        stats.put("stream", stream());
        stats.put("sessions", sessions.health().status().name());
        return stats;
    }

    private Map<String, Object> cache() {
        CacheStats s = cache.stats();
        CacheHealth h = cache.health();
        long reads = s.hits() + s.nearHits() + s.misses();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hits", s.hits() + s.nearHits());
        m.put("misses", s.misses());
        m.put("loads", s.loads());
        m.put("errors", s.errors());
        m.put("hitRatio", reads == 0 ? null : (double) (s.hits() + s.nearHits()) / reads);
        m.put("status", h.status().name());
        m.put("breaker", h.breaker().name());
        return m;
    }

    /** This instance's view of the job, the lock in Redis and the last report in PostgreSQL, each on its own. */
    private Map<String, Object> lock() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", ReportJob.LOCK);
        m.put("heldHereWithFence", job.heldFence().orElse(null));
        m.put("busy", job.busy());
        m.put("staleWritesRefused", job.stale());
        m.put("lastRun", job.lastRun().orElse(null));
        m.put("redis", guarded(() -> Map.of("held", redkit.commands().exists(job.lockKey()) > 0)));
        m.put("lastReport", guarded(() -> jdbc.query("SELECT id, instance, fence, written_at FROM reports"
                + " ORDER BY id DESC LIMIT 1", (rs, i) -> Map.<String, Object>of("period", rs.getString(1),
                        "instance", rs.getString(2), "fence", rs.getLong(3),
                        "writtenAt", rs.getTimestamp(4).toInstant().toString())).stream().findFirst().orElse(null)));
        return m;
    }

    /** This instance's publishing and handling, and the stream's state in Redis. */
    private Map<String, Object> stream() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("published", orders.published());
        m.put("handled", worker.counts().handled());
        m.put("duplicatesSkipped", worker.counts().duplicates());
        m.put("redis", guarded(() -> {
            QueueStats s = queue.stats();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("length", s.length());
            r.put("pending", s.pending());
            r.put("lag", s.lag().isPresent() ? s.lag().getAsLong() : null);
            r.put("deadLetters", s.deadLetters());
            return r;
        }));
        return m;
    }

    private static Object guarded(Supplier<?> section) {
        try {
            return section.get();
        } catch (RuntimeException e) {
            return Map.of("unavailable", String.valueOf(e.getMessage()));
        }
    }
}
