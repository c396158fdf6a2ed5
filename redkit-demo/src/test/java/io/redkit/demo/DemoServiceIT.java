package io.redkit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.redkit.testing.RedisServer;

/** The service end to end over HTTP, on a real redis-server and a real PostgreSQL. */
class DemoServiceIT {

    static final int LIMIT = 5;
    static RedisServer redis;
    static String database;
    static DemoInstance demo;
    /** alice's session: she may change products. (bob's are made by each test: one of them ends them all.) */
    static String editor;

    @BeforeAll
    static void start() {
        redis = RedisServer.start();
        database = DemoInstance.freshDatabase();
        demo = DemoInstance.start(redis, database, "--demo.report.enabled=false",
                "--redkit.limit.limiters.public-api.limits[0].permits=" + LIMIT,
                "--redkit.limit.limiters.public-api.limits[0].period=1h",
                // The tests here sign in more than the per-address allowance from one address; DemoApiContractIT
                // tests that limit on its own addresses.
                "--redkit.limit.limiters.login-address.limits[0].permits=1000",
                "--redkit.limit.limiters.login-address.limits[0].period=1m");
        editor = demo.signIn("alice", "wonderland");
    }

    @AfterAll
    static void stop() {
        DemoInstance.stop(demo, redis);
    }

    @Test
    void aSecondReadIsACacheHit() {
        long queries = demo.dbQueries();
        long hits = demo.stats().path("cache").path("hits").asLong();

        HttpResponse<String> first = demo.get("/products/11");
        HttpResponse<String> second = demo.get("/products/11");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(DemoInstance.json(second).path("name").asText()).isEqualTo("Product 11");
        assertThat(demo.dbQueries() - queries).isEqualTo(1);
        assertThat(demo.stats().path("cache").path("hits").asLong() - hits).isEqualTo(1);
    }

    @Test
    void aHundredConcurrentReadsOfAColdProductQueryTheDatabaseOnce() throws Exception {
        long queries = demo.dbQueries();
        List<HttpResponse<String>> responses = concurrently(100, () -> demo.get("/products/12"));

        assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
        assertThat(responses).extracting(HttpResponse::body).containsOnly(responses.get(0).body());
        assertThat(demo.dbQueries() - queries).isEqualTo(1);
    }

    @Test
    void anUpdateIsReadBackAtOnce() {
        assertThat(demo.get("/products/13").statusCode()).isEqualTo(200);  // cached now

        HttpResponse<String> put = demo.put("/products/13", "{\"name\":\"Kettle\",\"priceCents\":4599}", "Cookie",
                editor);
        HttpResponse<String> read = demo.get("/products/13");

        assertThat(put.statusCode()).isEqualTo(200);
        JsonNode product = DemoInstance.json(read);
        assertThat(product.path("priceCents").asLong()).isEqualTo(4599);
        assertThat(product.path("name").asText()).isEqualTo("Kettle");
    }

    @Test
    void badWritesAreRefusedAndChangeNothing() {
        String before = demo.get("/products/14").body();

        assertThat(demo.put("/products/14", "{\"name\":\"\",\"priceCents\":10}", "Cookie", editor).statusCode())
                .isEqualTo(400);
        assertThat(demo.put("/products/14", "{\"name\":\"X\",\"priceCents\":-1}", "Cookie", editor).statusCode())
                .isEqualTo(400);
        assertThat(demo.put("/products/999999", "{\"name\":\"X\",\"priceCents\":1}", "Cookie", editor)
                .statusCode()).isEqualTo(404);
        assertThat(demo.get("/products/999999").statusCode()).isEqualTo(404);
        assertThat(demo.get("/products/14").body()).isEqualTo(before);
    }

    @Test
    void aBatchReadIsOneQueryForItsMissesAndNoneOnceCached() {
        long queries = demo.dbQueries();

        HttpResponse<String> first = demo.get("/products?ids=20,21,22,999999");
        long afterFirst = demo.dbQueries();
        HttpResponse<String> second = demo.get("/products?ids=20,21,22,999999");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(DemoInstance.json(first).findValuesAsText("name"))
                .containsExactly("Product 20", "Product 21", "Product 22");
        assertThat(afterFirst - queries).isEqualTo(1);
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(demo.dbQueries()).isEqualTo(afterFirst);
        assertThat(demo.get("/products?ids=1,x").statusCode()).isEqualTo(400);
    }

    @Test
    void requestLPlusOneIsRefusedWith429AndRetryAfter() {
        List<HttpResponse<String>> allowed = new ArrayList<>();
        for (int i = 0; i < LIMIT; i++) {
            allowed.add(demo.get("/api/products/30"));
        }
        HttpResponse<String> refused = demo.get("/api/products/30");

        assertThat(allowed).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
        assertThat(allowed.get(0).headers().firstValue("RateLimit-Limit")).hasValue(Integer.toString(LIMIT));
        assertThat(allowed.get(LIMIT - 1).headers().firstValue("RateLimit-Remaining")).hasValue("0");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValueAsLong("Retry-After").orElseThrow()).isPositive();
        assertThat(demo.stats().path("limiter").path("limited").asLong()).isPositive();
        // The private read is not limited.
        assertThat(demo.get("/products/30").statusCode()).isEqualTo(200);
    }

    @Test
    void fiftyConcurrentOrdersWithOneKeyMakeOneOrderAndOneHandledEvent() throws Exception {
        String customer = demo.signIn("bob", "builder");
        String key = "order-" + System.nanoTime();
        List<HttpResponse<String>> responses = concurrently(50, () -> demo.post("/orders",
                "{\"productId\":40,\"quantity\":3}", OrderController.IDEMPOTENCY_KEY, key, "Cookie", customer));

        assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(200, 201)
                .filteredOn(s -> s == 201).hasSize(1);
        assertThat(responses).extracting(r -> DemoInstance.json(r).path("id").asLong()).containsOnly(
                DemoInstance.json(responses.get(0)).path("id").asLong());
        long orderId = DemoInstance.json(responses.get(0)).path("id").asLong();
        assertThat(count("SELECT count(*) FROM orders WHERE idempotency_key = ?", key)).isEqualTo(1);
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(count("SELECT count(*) FROM fulfilments WHERE order_id = ?", orderId)).isEqualTo(1));
        assertThat(count("SELECT count(*) FROM orders WHERE id = ? AND published_at IS NOT NULL", orderId))
                .isEqualTo(1);
    }

    @Test
    void anIdempotencyKeyIsBoundToItsRequest() {
        String customer = demo.signIn("bob", "builder");
        String key = "reuse-" + System.nanoTime();
        assertThat(demo.post("/orders", "{\"productId\":41,\"quantity\":1}", "Idempotency-Key", key, "Cookie",
                customer).statusCode()).isEqualTo(201);

        HttpResponse<String> replay = demo.post("/orders", "{\"productId\":41,\"quantity\":1}", "Idempotency-Key", key,
                "Cookie", customer);
        HttpResponse<String> otherBody = demo.post("/orders", "{\"productId\":41,\"quantity\":2}", "Idempotency-Key",
                key, "Cookie", customer);

        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(otherBody.statusCode()).isEqualTo(422);
        assertThat(demo.post("/orders", "{\"productId\":41,\"quantity\":1}", "Cookie", customer).statusCode())
                .isEqualTo(400);
        assertThat(demo.post("/orders", "{\"productId\":999999,\"quantity\":1}", "Idempotency-Key",
                "nope-" + System.nanoTime(), "Cookie", customer).statusCode()).isEqualTo(404);
    }

    @Test
    void loginSetsASecureCookieAndMeNeedsIt() {
        HttpResponse<String> login = demo.login("alice", "wonderland", null);
        String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
        String cookie = DemoInstance.cookie(login);

        assertThat(login.statusCode()).isEqualTo(200);
        assertThat(setCookie).startsWith("__Host-sid=").contains("Secure", "HttpOnly", "SameSite=Lax", "Path=/");
        assertThat(DemoInstance.json(demo.get("/me", "Cookie", cookie)).path("id").asText()).isEqualTo("alice");
        assertThat(demo.get("/me").statusCode()).isEqualTo(401);
        assertThat(demo.get("/me", "Cookie", "__Host-sid=not-a-session").statusCode()).isEqualTo(401);
        assertThat(demo.login("alice", "wrong", null).statusCode()).isEqualTo(401);
        assertThat(demo.login("mallory", "wonderland", null).statusCode()).isEqualTo(401);
    }

    @Test
    void signInAttemptsAreLimitedPerAddressAndUsername() {
        String user = "guesser-" + System.nanoTime();
        for (int i = 0; i < 10; i++) {
            assertThat(demo.login(user, "guess-" + i, null).statusCode()).isEqualTo(401);
        }
        HttpResponse<String> refused = demo.login(user, "guess-10", null);

        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValueAsLong("Retry-After").orElseThrow()).isPositive();
        assertThat(refused.headers().firstValue("Set-Cookie")).isEmpty();
        // Another username from the same address is counted apart.
        assertThat(demo.login("guesser-other-" + System.nanoTime(), "x", null).statusCode()).isEqualTo(401);
    }

    @Test
    void aLoginOnTopOfTheSameUsersSessionRotatesItsId() {
        String first = DemoInstance.cookie(demo.login("alice", "wonderland", null));

        String second = DemoInstance.cookie(demo.login("alice", "wonderland", first));

        assertThat(second).isNotEqualTo(first);
        assertThat(demo.get("/me", "Cookie", first).statusCode()).isEqualTo(401);
        assertThat(DemoInstance.json(demo.get("/me", "Cookie", second)).path("id").asText()).isEqualTo("alice");
    }

    @Test
    void aLoginWithAnotherUsersSessionCookieLeavesThatSessionAlone() {
        String bobs = DemoInstance.cookie(demo.login("bob", "builder", null));

        String alices = DemoInstance.cookie(demo.login("alice", "wonderland", bobs));

        assertThat(alices).isNotEqualTo(bobs);
        assertThat(DemoInstance.json(demo.get("/me", "Cookie", alices)).path("id").asText()).isEqualTo("alice");
        assertThat(DemoInstance.json(demo.get("/me", "Cookie", bobs)).path("id").asText())
                .as("bob is still signed in").isEqualTo("bob");
    }

    @Test
    void logoutEndsTheSessionAndLogoutEverywhereEndsThemAll() {
        String one = DemoInstance.cookie(demo.login("bob", "builder", null));
        String two = DemoInstance.cookie(demo.login("bob", "builder", null));
        String three = DemoInstance.cookie(demo.login("bob", "builder", null));

        HttpResponse<String> logout = demo.post("/logout", "", "Cookie", one);
        HttpResponse<String> everywhere = demo.post("/logout-everywhere", "", "Cookie", two);

        assertThat(logout.statusCode()).isEqualTo(204);
        assertThat(logout.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0");
        assertThat(demo.get("/me", "Cookie", one).statusCode()).isEqualTo(401);
        assertThat(everywhere.statusCode()).isEqualTo(200);
        assertThat(DemoInstance.json(everywhere).path("sessionsEnded").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(demo.get("/me", "Cookie", two).statusCode()).isEqualTo(401);
        assertThat(demo.get("/me", "Cookie", three).statusCode()).isEqualTo(401);
    }

    @Test
    void healthAndPrometheusAreServed() {
        HttpResponse<String> health = demo.asOperator("/actuator/health");
        HttpResponse<String> prometheus = demo.get("/actuator/prometheus");

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(DemoInstance.json(health).path("components").path("productCache").path("status").asText())
                .isEqualTo("UP");
        assertThat(prometheus.statusCode()).isEqualTo(200);
        assertThat(prometheus.body()).contains("demo_db_product_queries", "redkit_");
    }

    static <T> List<T> concurrently(int n, Callable<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return call.call();
                }));
            }
            go.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    static long count(String sql, Object param) throws SQLException {
        return countIn(database, sql, param);
    }

    static long countIn(String jdbcUrl, String sql, Object param) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, param);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
