package io.redkit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.redkit.testing.RedisServer;

/**
 * The service as a client, an attacker and an operator meet it at its edges, over HTTP: who may write, what a
 * refused request is told (RFC 9457 problem details, every time), what a request may cost (its body, its batch,
 * the sign-in's password hash), and cross-site requests. Clients that must not share a per-address limit with the
 * rest of the tests send from another loopback address ({@link RawHttp}).
 */
class DemoApiContractIT {

    static final int PUBLIC_LIMIT = 5;
    static final String PROBLEMS = "tag:redkit.io,2026:problems/";

    static RedisServer redis;
    static String database;
    static DemoInstance demo;
    static String alice;
    static String bob;

    @BeforeAll
    static void start() {
        redis = RedisServer.start();
        database = DemoInstance.freshDatabase();
        demo = DemoInstance.start(redis, database, "--demo.report.enabled=false",
                "--redkit.limit.limiters.public-api.limits[0].permits=" + PUBLIC_LIMIT,
                "--redkit.limit.limiters.public-api.limits[0].period=1h");
        alice = demo.signIn("alice", "wonderland");
        bob = demo.signIn("bob", "builder");
    }

    @AfterAll
    static void stop() {
        DemoInstance.stop(demo, redis);
    }

    @Test
    void onlyAnEditorMayChangeAProduct() {
        String before = demo.get("/products/7").body();
        String cheap = "{\"name\":\"Product 7\",\"priceCents\":1}";

        HttpResponse<String> anonymous = demo.put("/products/7", cheap);
        HttpResponse<String> customer = demo.put("/products/7", cheap, "Cookie", bob);

        assertProblem(anonymous, 401, "sign-in-required");
        assertProblem(customer, 403, "forbidden");
        assertThat(demo.get("/products/7").body()).as("the price is unchanged").isEqualTo(before);

        HttpResponse<String> editor = demo.put("/products/7", "{\"name\":\"Product 7\",\"priceCents\":4200}",
                "Cookie", alice);
        assertThat(editor.statusCode()).isEqualTo(200);
        assertThat(DemoInstance.json(demo.get("/products/7")).path("priceCents").asLong()).isEqualTo(4200);
    }

    @Test
    void anOrderIsPlacedByASignedInAccountAndRecordsIt() throws Exception {
        String key = "who-" + System.nanoTime();
        String body = "{\"productId\":8,\"quantity\":2}";

        HttpResponse<String> anonymous = demo.post("/orders", body, OrderController.IDEMPOTENCY_KEY, key);
        HttpResponse<String> bobs = demo.post("/orders", body, OrderController.IDEMPOTENCY_KEY, key, "Cookie", bob);
        HttpResponse<String> alices = demo.post("/orders", body, OrderController.IDEMPOTENCY_KEY, key,
                "Cookie", alice);

        assertProblem(anonymous, 401, "sign-in-required");
        assertThat(bobs.statusCode()).isEqualTo(201);
        assertThat(DemoInstance.json(bobs).path("placedBy").asText()).isEqualTo("bob");
        // The key is bob's own: alice's request with the same key is her order, not a replay of his.
        assertThat(alices.statusCode()).isEqualTo(201);
        assertThat(DemoInstance.json(alices).path("id").asLong())
                .isNotEqualTo(DemoInstance.json(bobs).path("id").asLong());
        assertThat(DemoServiceIT.countIn(database, "SELECT count(*) FROM orders WHERE placed_by = 'bob'"
                + " AND idempotency_key = ?", key)).isEqualTo(1);
        assertThat(DemoServiceIT.countIn(database, "SELECT count(*) FROM orders WHERE idempotency_key = ?", key))
                .isEqualTo(2);
    }

    @Test
    void aStateChangingRequestFromAnotherSiteIsRefused() throws Exception {
        String key = "csrf-" + System.nanoTime();
        String body = "{\"productId\":9,\"quantity\":1}";
        String own = "http://127.0.0.1:" + demo.port();

        HttpResponse<String> otherOrigin = demo.post("/orders", body, OrderController.IDEMPOTENCY_KEY, key,
                "Cookie", bob, "Origin", "https://evil.example");
        HttpResponse<String> crossSite = demo.post("/orders", body, OrderController.IDEMPOTENCY_KEY, key,
                "Cookie", bob, "Sec-Fetch-Site", "cross-site");
        HttpResponse<String> sameSiteOtherOrigin = demo.put("/products/9", "{\"name\":\"x\",\"priceCents\":1}",
                "Cookie", alice, "Sec-Fetch-Site", "same-site");
        HttpResponse<String> formPost = demo.send(HttpRequest.newBuilder(demo.uri("/orders"))
                .header("Content-Type", "text/plain").header("Cookie", bob)
                .header(OrderController.IDEMPOTENCY_KEY, key).POST(HttpRequest.BodyPublishers.ofString(body)));

        assertProblem(otherOrigin, 403, "cross-site-request");
        assertProblem(crossSite, 403, "cross-site-request");
        assertProblem(sameSiteOtherOrigin, 403, "cross-site-request");
        assertProblem(formPost, 415, "unsupported-media-type");
        assertThat(DemoServiceIT.countIn(database, "SELECT count(*) FROM orders WHERE idempotency_key = ?", key))
                .as("no order was placed").isZero();

        HttpResponse<String> multipart = demo.send(HttpRequest.newBuilder(demo.uri("/orders"))
                .header("Content-Type", "multipart/form-data; boundary=x").header("Cookie", bob)
                .header(OrderController.IDEMPOTENCY_KEY, key)
                .POST(HttpRequest.BodyPublishers.ofString("--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1"
                        + "\r\n--x--\r\n")));
        assertProblem(multipart, 415, "unsupported-media-type");

        HttpResponse<String> ownPage = demo.post("/orders", body, OrderController.IDEMPOTENCY_KEY, key,
                "Cookie", bob, "Origin", own, "Sec-Fetch-Site", "same-origin");
        assertThat(ownPage.statusCode()).isEqualTo(201);
        // Behind a TLS-terminating proxy the browser's Origin says https while this server sees http: the
        // browser's Sec-Fetch-Site decides.
        HttpResponse<String> behindProxy = demo.post("/orders", body, OrderController.IDEMPOTENCY_KEY,
                key + "-tls", "Cookie", bob, "Origin", "https://127.0.0.1:" + demo.port(), "Sec-Fetch-Site",
                "same-origin");
        assertThat(behindProxy.statusCode()).isEqualTo(201);
    }

    @Test
    void everyErrorIsAProblemDetailsDocument() {
        assertProblem(demo.get("/products/999999"), 404, "not-found");
        assertProblem(demo.get("/no/such/path"), 404, "not-found");
        assertProblem(demo.get("/error"), 404, "not-found");
        assertProblem(demo.send(HttpRequest.newBuilder(demo.uri("/products/1")).DELETE()), 405,
                "method-not-allowed");
        assertProblem(demo.get("/products"), 400, "invalid-request");
        assertProblem(demo.post("/orders", "{\"productId\":1,\"quantity\":1}", "Cookie", bob), 400,
                "invalid-request");
        assertProblem(demo.post("/orders", "{\"productId\":", OrderController.IDEMPOTENCY_KEY, "k-" + System.nanoTime(),
                "Cookie", bob), 400, "malformed-body");
        HttpResponse<String> quantity = demo.post("/orders", "{\"productId\":1,\"quantity\":0}",
                OrderController.IDEMPOTENCY_KEY, "q-" + System.nanoTime(), "Cookie", bob);
        assertProblem(quantity, 400, "invalid-request");
        assertThat(DemoInstance.json(quantity).path("field").asText()).isEqualTo("quantity");
        assertThat(DemoInstance.json(quantity).path("detail").asText()).contains("1 to 1000");

        String key = "reused-" + System.nanoTime();
        demo.post("/orders", "{\"productId\":1,\"quantity\":1}", OrderController.IDEMPOTENCY_KEY, key, "Cookie", bob);
        HttpResponse<String> reused = demo.post("/orders", "{\"productId\":1,\"quantity\":2}",
                OrderController.IDEMPOTENCY_KEY, key, "Cookie", bob);
        assertProblem(reused, 422, "idempotency-key-reused");
        assertThat(DemoInstance.json(reused).path("detail").asText()).contains("another order");

        // Refused by Tomcat itself, before any servlet: an over-long header, and the URL.
        RawHttp.Answer header = RawHttp.send(demo.port(), "127.0.0.1", "GET", "/products/1", null,
                "X-Padding", "x".repeat(20_000));
        RawHttp.Answer url = RawHttp.send(demo.port(), "127.0.0.1", "GET", "/products?ids=" + "1,".repeat(10_000),
                null);
        for (RawHttp.Answer answer : List.of(header, url)) {
            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.header("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                    .startsWith("application/problem+json"));
            assertThat(DemoInstance.json(answer.body()).path("type").asText()).isEqualTo(PROBLEMS + "bad-http-request");
        }
    }

    @Test
    void aNumberIsNeverCoercedAndUnknownPropertiesAreRefused() throws Exception {
        String key = "strict-" + System.nanoTime();
        Map<String, String> bodies = Map.of(
                "fraction", "{\"productId\":10,\"quantity\":1.5}",
                "string", "{\"productId\":10,\"quantity\":\"2\"}",
                "unknown", "{\"productId\":10,\"quantity\":1,\"discount\":100}",
                "string id", "{\"productId\":\"10\",\"quantity\":1}");
        for (Map.Entry<String, String> body : bodies.entrySet()) {
            HttpResponse<String> answer = demo.post("/orders", body.getValue(), OrderController.IDEMPOTENCY_KEY, key,
                    "Cookie", bob);
            assertProblem(answer, 400, "malformed-body");
            System.out.printf("[figures] DemoApiContractIT %s: %s%n", body.getKey(),
                    DemoInstance.json(answer).path("detail").asText());
        }
        assertThat(DemoInstance.json(demo.post("/orders", bodies.get("fraction"), OrderController.IDEMPOTENCY_KEY,
                key, "Cookie", bob)).path("field").asText()).isEqualTo("quantity");
        assertThat(DemoServiceIT.countIn(database, "SELECT count(*) FROM orders WHERE idempotency_key = ?", key))
                .isZero();
        assertProblem(demo.put("/products/10", "{\"name\":\"x\",\"priceCents\":1.5}", "Cookie", alice), 400,
                "malformed-body");
    }

    @Test
    void aBodyOverSixteenKiBIsRefusedWith413() throws Exception {
        String key = "large-" + System.nanoTime();
        String padding = "x".repeat(10 * 1024 * 1024);
        String large = "{\"productId\":11,\"quantity\":1,\"note\":\"" + padding + "\"}";
        byte[] chunked = ("{\"productId\":11,\"quantity\":1,\"note\":\"" + "y".repeat(17 * 1024) + "\"}")
                .getBytes();

        HttpResponse<String> declared = demo.post("/orders", large, OrderController.IDEMPOTENCY_KEY, key,
                "Cookie", bob);
        HttpResponse<String> streamed = demo.send(HttpRequest.newBuilder(demo.uri("/orders"))
                .header("Content-Type", "application/json").header("Cookie", bob)
                .header(OrderController.IDEMPOTENCY_KEY, key)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(chunked))));

        assertProblem(declared, 413, "body-too-large");
        assertProblem(streamed, 413, "body-too-large");
        assertThat(DemoServiceIT.countIn(database, "SELECT count(*) FROM orders WHERE idempotency_key = ?", key))
                .isZero();
    }

    @Test
    void idsArePositiveWholeNumbers() {
        for (String path : List.of("/products?ids=-5,0", "/products?ids=0", "/products?ids=1,x", "/products/0",
                "/products/-3", "/products/abc", "/api/products?ids=-1")) {
            HttpResponse<String> answer = demo.get(path);
            assertProblem(answer, 400, "invalid-request");
            assertThat(DemoInstance.json(answer).path("field").asText()).as(path).isIn("ids", "id");
        }
    }

    @Test
    void aBatchCostsOnePermitPerProductAllOrNone() {
        String client = "127.0.0.3";
        RawHttp.Answer three = RawHttp.send(demo.port(), client, "GET", "/api/products?ids=1,2,3", null);
        RawHttp.Answer threeMore = RawHttp.send(demo.port(), client, "GET", "/api/products?ids=4,5,6", null);
        RawHttp.Answer two = RawHttp.send(demo.port(), client, "GET", "/api/products?ids=4,5", null);
        RawHttp.Answer tooMany = RawHttp.send(demo.port(), "127.0.0.4", "GET", "/api/products?ids=1,2,3,4,5,6",
                null);

        assertThat(three.status()).isEqualTo(200);
        assertThat(three.header("RateLimit-Remaining")).hasValue("2");
        assertThat(three.header("RateLimit-Policy")).hasValueSatisfying(p -> assertThat(p)
                .startsWith(PUBLIC_LIMIT + ";w=3600").contains("one permit per product"));
        // Three more than the two left: refused whole, nothing taken.
        assertThat(threeMore.status()).isEqualTo(429);
        assertThat(threeMore.header("Content-Type")).hasValue("application/problem+json;charset=UTF-8");
        assertThat(DemoInstance.json(threeMore.body()).path("type").asText()).isEqualTo(PROBLEMS + "rate-limited");
        assertThat(threeMore.header("RateLimit-Remaining")).hasValue("2");
        // Reset is when the next request passes, as Retry-After says, not when the hour's allowance is full again.
        assertThat(threeMore.header("RateLimit-Reset")).isEqualTo(threeMore.header("Retry-After"));
        assertThat(two.status()).isEqualTo(200);
        assertThat(two.header("RateLimit-Remaining")).hasValue("0");
        // Repeated ids parameters are one list to the controller, and priced as one: 3 permits, not 1.
        RawHttp.Answer repeated = RawHttp.send(demo.port(), "127.0.0.5", "GET", "/api/products?ids=1&ids=2,3", null);
        RawHttp.Answer repeatedTooMany = RawHttp.send(demo.port(), "127.0.0.5", "GET",
                "/api/products?ids=1&ids=2,3,4,5,6", null);
        assertThat(repeated.status()).isEqualTo(200);
        assertThat(DemoInstance.json(repeated.body()).size()).isEqualTo(3);
        assertThat(repeated.header("RateLimit-Remaining")).hasValue("2");
        assertThat(repeatedTooMany.status()).isEqualTo(400);
        // More products than the limit holds could never pass: a 400, not a 429 to wait out.
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(DemoInstance.json(tooMany.body()).path("field").asText()).isEqualTo("ids");
        System.out.printf("[figures] DemoApiContractIT public limit %d per hour: batches of 3, 3, 2 ids -> %d %d %d"
                + " (remaining %s, %s, %s)%n", PUBLIC_LIMIT, three.status(), threeMore.status(), two.status(),
                three.header("RateLimit-Remaining").orElse("-"), threeMore.header("RateLimit-Remaining").orElse("-"),
                two.header("RateLimit-Remaining").orElse("-"));
    }

    @Test
    void aSignInFloodFromOneAddressHashesAtMostItsAllowance() throws Exception {
        int allowance = 20;
        String client = "127.0.0.2";
        long hashesBefore = demo.stats().path("login").path("computed").asLong();
        List<Long> quiet = productReads(200);

        AtomicBoolean flooding = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(31);
        try {
            Future<List<Long>> duringFlood = pool.submit(() -> {
                List<Long> times = new ArrayList<>();
                while (flooding.get()) {
                    times.addAll(productReads(10));
                }
                return times;
            });
            List<Future<RawHttp.Answer>> logins = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                String body = "{\"username\":\"nobody-" + i + "-" + System.nanoTime() + "\",\"password\":\"guess\"}";
                logins.add(pool.submit(() -> RawHttp.send(demo.port(), client, "POST", "/login", body,
                        "Content-Type", "application/json")));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<RawHttp.Answer> f : logins) {
                RawHttp.Answer answer = f.get();
                statuses.add(answer.status());
                if (answer.status() == 503) {
                    assertThat(answer.header("Retry-After")).as("503 sign-in-busy").hasValue("1");
                    assertThat(DemoInstance.json(answer.body()).path("type").asText())
                            .isEqualTo(PROBLEMS + "sign-in-busy");
                }
            }
            flooding.set(false);
            List<Long> flood = duringFlood.get();
            long hashed = demo.stats().path("login").path("computed").asLong() - hashesBefore;
            Map<Integer, Long> byStatus = statuses.stream().collect(Collectors.groupingBy(Function.identity(),
                    Collectors.counting()));

            System.out.printf("[figures] DemoApiContractIT 30 sign-ins with 30 usernames from one address: %s,"
                    + " %d hashed; product read p50/p99 %.1f/%.1f ms quiet, %.1f/%.1f ms during the flood%n",
                    byStatus, hashed, percentile(quiet, 50), percentile(quiet, 99), percentile(flood, 50),
                    percentile(flood, 99));
            assertThat(byStatus.get(429)).as("refused by the per-address limit").isEqualTo(30L - allowance);
            assertThat(hashed).isLessThanOrEqualTo(allowance);
            assertThat(byStatus.getOrDefault(401, 0L)).isEqualTo(hashed);
            assertThat(byStatus.keySet()).isSubsetOf(401, 429, 503);
        } finally {
            flooding.set(false);
            pool.shutdownNow();
        }
        // A genuine sign-in from another address is not held back by the flood's limit.
        assertThat(demo.login("alice", "wonderland", null).statusCode()).isEqualTo(200);
    }

    @Test
    void healthDetailsAreForOperatorsAndTheStatusForEveryone() {
        HttpResponse<String> anyone = demo.get("/actuator/health");
        HttpResponse<String> wrongToken = demo.get("/actuator/health", "Authorization", "Bearer "
                + "x".repeat(DemoInstance.OPS_TOKEN.length()));
        HttpResponse<String> operator = demo.asOperator("/actuator/health");

        assertThat(anyone.statusCode()).isEqualTo(200);
        assertThat(DemoInstance.json(anyone).path("status").asText()).isEqualTo("UP");
        assertThat(anyone.body()).doesNotContain("components", "diskSpace", "path");
        assertThat(wrongToken.body()).doesNotContain("components");
        assertThat(DemoInstance.json(operator).path("components").path("diskSpace").path("details").has("free"))
                .isTrue();
        assertThat(demo.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
    }

    @Test
    void theRootSendsABrowserToTheOpsPage() {
        HttpResponse<String> root = demo.get("/");
        assertThat(root.statusCode()).isEqualTo(302);
        assertThat(root.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/ops.html"));
    }

    private static List<Long> productReads(int n) {
        List<Long> micros = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            assertThat(demo.get("/products/" + (100 + i % 50)).statusCode()).isEqualTo(200);
            micros.add((System.nanoTime() - start) / 1000);
        }
        return micros;
    }

    private static double percentile(List<Long> micros, int p) {
        long[] sorted = micros.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted.length == 0 ? Double.NaN
                : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1000.0;
    }

    static void assertProblem(HttpResponse<String> answer, int status, String type) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("application/problem+json"));
        JsonNode problem = DemoInstance.json(answer);
        assertThat(problem.path("type").asText()).isEqualTo(PROBLEMS + type);
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("title").asText()).isNotBlank();
        assertThat(problem.path("detail").asText()).isNotBlank();
    }
}
