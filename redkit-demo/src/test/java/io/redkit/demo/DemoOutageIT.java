package io.redkit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.redkit.testing.RedisServer;

/**
 * The service while its Redis is gone, frozen (SIGSTOP) or killed, and after it returns: product reads still
 * answer from PostgreSQL, sessions answer 503 (never anonymous) within a second, health says degraded and not
 * ready, orders are still taken, and all of it comes back without restarting the service.
 */
class DemoOutageIT {

    private static final Duration RECOVERY = Duration.ofSeconds(20);

    RedisServer redis;
    String database;
    DemoInstance demo;

    @BeforeEach
    void start() {
        redis = RedisServer.start();
        database = DemoInstance.freshDatabase();
        demo = DemoInstance.start(redis, database, "--demo.report.enabled=false", "--demo.outbox.interval=500ms");
    }

    @AfterEach
    void stop() {
        if (demo != null) {
            demo.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aFrozenRedisDegradesTheServiceAndItRecoversWhenRedisWakes() throws Exception {
        String alice = DemoInstance.cookie(demo.login("alice", "wonderland", null));
        assertThat(demo.get("/products/50").statusCode()).isEqualTo(200);

        // A first order, published at its commit: the publish script is now cached on the server, as it is in any
        // service that has taken an order before (a first publish's EVALSHA would meet NOSCRIPT and never run).
        assertThat(demo.post("/orders", "{\"productId\":53,\"quantity\":1}", "Idempotency-Key",
                "before-" + System.nanoTime(), "Cookie", alice).statusCode()).isEqualTo(201);

        // An order whose publish after the commit meets a frozen Redis: the request passes the session check while
        // Redis answers, then waits for a lock the test holds on the orders table; Redis is frozen, the lock let go.
        Future<HttpResponse<String>> order;
        ExecutorService client = Executors.newSingleThreadExecutor();
        try (Connection tables = DriverManager.getConnection(database)) {
            tables.setAutoCommit(false);
            tables.createStatement().execute("LOCK TABLE orders IN SHARE MODE");
            order = client.submit(() -> demo.post("/orders", "{\"productId\":51,\"quantity\":1}",
                    "Idempotency-Key", "outage-" + System.nanoTime(), "Cookie", alice));
            await().atMost(RECOVERY).until(() -> DemoServiceIT.countIn(database, "SELECT count(*) FROM pg_locks"
                    + " WHERE NOT granted AND relation = ?::regclass", "orders") > 0);
            redis.pause();
            tables.commit();
        } finally {
            client.shutdown();
        }
        try {
            HttpResponse<String> placed = order.get(30, TimeUnit.SECONDS);
            assertThat(placed.statusCode()).isEqualTo(201);
            long orderId = DemoInstance.json(placed).path("id").asLong();
            assertOutage(alice);
            // A new order needs the caller's session, which cannot be read: 503, never an anonymous order.
            HttpResponse<String> refused = demo.post("/orders", "{\"productId\":52,\"quantity\":1}",
                    "Idempotency-Key", "refused-" + System.nanoTime(), "Cookie", alice);
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");

            redis.resume();

            // The same cookie works again: the session was in Redis all along.
            await().atMost(RECOVERY).untilAsserted(() -> assertThat(demo.get("/me", "Cookie", alice).statusCode())
                    .isEqualTo(200));
            assertRecovered();
            // The order taken during the outage reached the worker, and is on the stream once: its commit-time
            // publish timed out but ran when Redis woke, and the relay's publish of it found it there.
            await().atMost(RECOVERY).untilAsserted(() -> assertThat(DemoServiceIT.countIn(database,
                    "SELECT count(*) FROM fulfilments WHERE order_id = ?", orderId)).isEqualTo(1));
            await().atMost(RECOVERY).until(() -> DemoServiceIT.countIn(database,
                    "SELECT count(*) FROM orders WHERE published_at IS NULL AND id >= ?", 0L) == 0);
            long orders = DemoServiceIT.countIn(database, "SELECT count(*) FROM orders WHERE id >= ?", 0L);
            long entries = entriesAdded("stream:{orders}");
            System.out.printf("[figures] DemoOutageIT an order whose publish met a frozen Redis: %d stream entries"
                    + " for %d orders (%.1f per order)%n", entries, orders, (double) entries / orders);
            assertThat(entries).isEqualTo(orders);
        } finally {
            redis.resume();
        }
    }

    @Test
    void aKilledRedisDegradesTheServiceAndItRecoversWhenRedisRestarts() throws Exception {
        String alice = DemoInstance.cookie(demo.login("alice", "wonderland", null));
        assertThat(demo.get("/products/60").statusCode()).isEqualTo(200);

        redis.kill();
        assertOutage(alice);

        redis.restart();

        // A restarted Redis is empty: the old session is gone (401, not 503), a new sign-in works.
        await().atMost(RECOVERY).untilAsserted(() -> assertThat(demo.get("/me", "Cookie", alice).statusCode())
                .isEqualTo(401));
        String again = DemoInstance.cookie(demo.login("alice", "wonderland", null));
        assertThat(demo.get("/me", "Cookie", again).statusCode()).isEqualTo(200);
        assertRecovered();
    }

    private void assertOutage(String cookie) {
        // Reads never fail because of Redis: each one is answered from PostgreSQL.
        for (int id = 70; id < 90; id++) {
            HttpResponse<String> read = demo.get("/products/" + id);
            assertThat(read.statusCode()).as("GET /products/%d while Redis is away", id).isEqualTo(200);
            assertThat(DemoInstance.json(read).path("id").asLong()).isEqualTo(id);
        }
        long started = System.nanoTime();
        HttpResponse<String> me = demo.get("/me", "Cookie", cookie);
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        assertThat(me.statusCode()).isEqualTo(503);
        assertThat(me.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(elapsedMillis).as("GET /me answered 503 after %d ms", elapsedMillis).isLessThan(1000);
        // Sign-in attempts cannot be counted, so none is let through (the login limiter fails closed).
        HttpResponse<String> login = demo.login("bob", "builder", null);
        assertThat(login.statusCode()).isEqualTo(503);
        assertThat(login.headers().firstValue("Set-Cookie")).isEmpty();

        await().atMost(RECOVERY).untilAsserted(() -> {
            demo.get("/products/90");
            JsonNode health = DemoInstance.json(demo.asOperator("/actuator/health"));
            assertThat(health.path("components").path("productCache").path("status").asText()).isEqualTo("DEGRADED");
            assertThat(health.path("components").path("redkitSessions").path("status").asText())
                    .isEqualTo("OUT_OF_SERVICE");
            HttpResponse<String> readiness = demo.get("/actuator/health/readiness");
            assertThat(readiness.statusCode()).isEqualTo(503);
            assertThat(DemoInstance.json(readiness).path("status").asText()).isEqualTo("OUT_OF_SERVICE");
        });
        assertThat(demo.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
    }

    /** Every entry ever added to the stream ({@code XINFO STREAM}'s entries-added), trimmed or not. */
    private long entriesAdded(String stream) {
        List<?> info = (List<?>) redis.command("XINFO", "STREAM", stream);
        for (int i = 0; i + 1 < info.size(); i += 2) {
            if ("entries-added".equals(String.valueOf(info.get(i)))) {
                return Long.parseLong(String.valueOf(info.get(i + 1)));
            }
        }
        throw new IllegalStateException("XINFO STREAM " + stream + " has no entries-added: " + info);
    }

    private void assertRecovered() {
        await().atMost(RECOVERY).untilAsserted(() -> {
            demo.get("/products/91");
            JsonNode health = DemoInstance.json(demo.asOperator("/actuator/health"));
            assertThat(health.path("status").asText()).isEqualTo("UP");
            assertThat(health.path("components").path("productCache").path("status").asText()).isEqualTo("UP");
            assertThat(demo.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
        });
        // The cache is used again: a second read is a hit and sends no query.
        demo.get("/products/92");
        long queries = demo.dbQueries();
        assertThat(demo.get("/products/92").statusCode()).isEqualTo(200);
        assertThat(demo.dbQueries()).isEqualTo(queries);
    }
}
