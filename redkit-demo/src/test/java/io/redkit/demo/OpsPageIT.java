package io.redkit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import com.fasterxml.jackson.databind.JsonNode;

import io.redkit.testing.RedisServer;

/**
 * The ops page in a real browser: headless Chromium opens {@code /ops.html} once, and what it shows follows what is
 * done to the service over HTTP, without a reload. The one test of the build that may skip: without Chromium and
 * its driver at the Debian paths there is nothing to drive ({@code .ci/run} installs both).
 *
 * <p>Every read of the page is one script returning all its fields, so a refresh cannot land between two of them.
 * The last test stops the service, to see the page say so; screenshots go to {@code -Dops.screenshot} (default
 * {@code target/ops-page.png}) and, for the failed state, next to it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OpsPageIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final String INSTALL = "; .ci/run installs Debian's chromium and chromium-driver";
    private static final String NONE = "–";

    private static RedisServer redis;
    private static DemoInstance demo;
    private static Path profile;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM), "no Chromium at " + CHROMIUM + INSTALL);
        assumeTrue(Files.isExecutable(CHROMEDRIVER), "no chromedriver at " + CHROMEDRIVER + INSTALL);
        redis = RedisServer.start();
        // A short report period, so that the lock section has a report to show within the test.
        demo = DemoInstance.start(redis, DemoInstance.freshDatabase(), "--demo.report.period=5s");
        profile = Files.createTempDirectory("ops-page-chromium-");
        // Both paths given: Selenium Manager, which would look for a browser and a driver online, never runs.
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless=new",
                "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1100,900", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.get(demo.uri("/ops.html").toString());
    }

    @AfterAll
    static void stop() throws IOException {
        try {
            if (browser != null) {
                browser.quit();
            }
        } finally {
            if (demo != null) {
                demo.close();
            }
            if (redis != null) {
                redis.close();
            }
            if (profile != null) {
                try (Stream<Path> files = Files.walk(profile)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    @Test
    @Order(1)
    void showsTheServiceStateAndRefreshesEverySecond() {
        JsonNode stats = demo.stats();
        awaitPatiently().until(() -> page().get("instance").equals(stats.path("instance").asText()));
        Map<String, String> first = page();
        assertThat(first.get("breaker")).isEqualTo(stats.path("cache").path("breaker").asText());
        assertThat(first.get("cache-status")).isEqualTo(stats.path("cache").path("status").asText());
        assertThat(first.get("sessions")).isEqualTo(stats.path("sessions").asText());
        assertThat(first.get("class:breaker")).contains(first.get("breaker"));
        assertThat(first.get("updated-at")).matches("\\d{2}:\\d{2}:\\d{2}");
        assertThat(first.get("refresh-error")).isEmpty();
        // Nothing was read yet: no ratio to show, not "0 %".
        assertThat(first.get("cache-hit-ratio")).isEqualTo(NONE);

        // Live: the time of the last refresh moves on by itself, twice over, with nothing done to the service.
        String second = awaitChange("updated-at", first.get("updated-at"));
        awaitChange("updated-at", second);
    }

    @Test
    @Order(2)
    void productReadsShowAsOneMissAndItsQueryThenHits() {
        long id = 4242;
        Map<String, String> before = awaitNumbers("cache-hits", "cache-misses", "db-queries");
        assertThat(demo.get("/products/" + id).statusCode()).isEqualTo(200);
        for (int i = 0; i < 3; i++) {
            assertThat(demo.get("/products/" + id).statusCode()).isEqualTo(200);
        }

        awaitPage(p -> number(p, "cache-misses") == number(before, "cache-misses") + 1
                && number(p, "cache-hits") == number(before, "cache-hits") + 3
                && number(p, "db-queries") == number(before, "db-queries") + 1);
        Map<String, String> after = page();
        double hits = number(after, "cache-hits");
        double ratio = Double.parseDouble(after.get("cache-hit-ratio").replace("%", "").trim());
        assertThat(ratio).isCloseTo(100 * hits / (hits + number(after, "cache-misses")), within(0.051));
    }

    @Test
    @Order(3)
    void apiCallsShowAsLimiterDecisions() {
        Map<String, String> before = awaitNumbers("limiter-allowed", "limiter-limited", "limiter-failed-open");
        for (long id = 1; id <= 3; id++) {
            assertThat(demo.get("/api/products/" + id).statusCode()).isEqualTo(200);
        }

        awaitPage(p -> number(p, "limiter-allowed") == number(before, "limiter-allowed") + 3);
        Map<String, String> after = page();
        assertThat(number(after, "limiter-limited")).isEqualTo(number(before, "limiter-limited"));
        assertThat(number(after, "limiter-failed-open")).isEqualTo(number(before, "limiter-failed-open"));
    }

    @Test
    @Order(4)
    void anOrderShowsAsPublishedThenHandled() {
        Map<String, String> before = awaitNumbers("stream-published", "stream-handled", "stream-length");
        String bob = demo.signIn("bob", "builder");
        assertThat(demo.post("/orders", "{\"productId\":5,\"quantity\":1}", OrderController.IDEMPOTENCY_KEY,
                "ops-page-" + UUID.randomUUID(), "Cookie", bob).statusCode()).isEqualTo(201);

        awaitPage(p -> number(p, "stream-published") == number(before, "stream-published") + 1
                && number(p, "stream-handled") == number(before, "stream-handled") + 1
                && number(p, "stream-length") == number(before, "stream-length") + 1
                && number(p, "stream-pending") == 0);
        assertThat(page().get("stream-dead-letters")).isEqualTo("0");
    }

    @Test
    @Order(5)
    void theLockSectionShowsTheLastReport() {
        // One report per 5 s: the page, a second behind at most, matches the service most of the time.
        awaitPage(p -> {
            JsonNode report = demo.stats().path("lock").path("lastReport");
            return report.isObject() && p.get("report-period").equals(report.path("period").asText())
                    && p.get("report-fence").equals(report.path("fence").asText())
                    && p.get("report-instance").equals(report.path("instance").asText());
        });
        Map<String, String> p = page();
        assertThat(p.get("report-instance")).isEqualTo(p.get("instance"));
        assertThat(p.get("lock-held")).isIn("held", "free");
        assertThat(p.get("lock-name")).isEqualTo(ReportJob.LOCK);
        assertThat(p.get("lock-unavailable")).isEmpty();
        screenshot(screenshotPath());
    }

    @Test
    @Order(6)
    void redisAwayShowsAsAnOpenBreakerFailedOpenDecisionsAndUnavailableSections() {
        Map<String, String> before = awaitNumbers("limiter-allowed", "limiter-failed-open");
        redis.stop();
        try {
            // Reads that find Redis gone: the cache fails over to PostgreSQL and its breaker opens.
            for (long id = 100; id < 110; id++) {
                assertThat(demo.get("/products/" + id).statusCode()).isEqualTo(200);
            }
            // The public API lets traffic through without its limiter (FAIL_OPEN), and counts it.
            for (long id = 1; id <= 2; id++) {
                assertThat(demo.get("/api/products/" + id).statusCode()).isEqualTo(200);
            }

            awaitPage(p -> p.get("breaker").equals("OPEN") && p.get("class:breaker").contains("OPEN")
                    && p.get("cache-status").equals("DEGRADED") && p.get("sessions").equals("NOT_READY")
                    && number(p, "limiter-failed-open") == number(before, "limiter-failed-open") + 2
                    && number(p, "limiter-allowed") == number(before, "limiter-allowed") + 2
                    && p.get("lock-unavailable").startsWith("Unavailable: ") && p.get("lock-held").equals(NONE)
                    && p.get("stream-unavailable").startsWith("Unavailable: ") && p.get("stream-lag").equals(NONE));
            // What does not come from Redis still shows: the last report (PostgreSQL), this instance's counters.
            Map<String, String> p = page();
            assertThat(p.get("report-period")).isNotEqualTo(NONE);
            assertThat(p.get("report-unavailable")).isEmpty();
            assertThat(p.get("lock-busy")).matches("\\d+");
            assertThat(p.get("lock-last-run")).isEqualTo("written");
            assertThat(p.get("stream-handled")).matches("\\d+");
            assertThat(page().get("refresh-error")).as("the service answers; only Redis is away").isEmpty();
        } finally {
            redis.restart();
        }

        awaitPage(p -> p.get("breaker").equals("CLOSED") && p.get("lock-unavailable").isEmpty()
                && p.get("stream-unavailable").isEmpty() && p.get("stream-lag").matches("\\d+"));
    }

    @Test
    @Order(7)
    void aServiceThatStopsAnsweringIsShownAsSuchNotAsItsLastNumbers() {
        awaitPage(p -> p.get("refresh-error").isEmpty());
        demo.close();

        awaitPage(p -> p.get("refresh-error").contains("Stats unavailable since"));
        String lastGood = page().get("updated-at");
        // It stays so, over several refreshes: the time shown is the last good one, the numbers marked stale.
        awaitPatiently().during(Duration.ofMillis(2000)).until(OpsPageIT::page,
                p -> p.get("refresh-error").contains("Stats unavailable since")
                        && p.get("updated-at").equals(lastGood) && p.get("class:stats").contains("stale"));
        String path = screenshotPath().toString();
        screenshot(Path.of(path.replaceFirst("(\\.png)?$", "-unavailable.png")));
    }

    /** The page's fields (its elements with an id and only text) and {@code class:<id>} of a few, in one script. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> page() {
        return (Map<String, String>) ((JavascriptExecutor) browser).executeScript("""
                const out = {};
                for (const el of document.querySelectorAll('body [id]:not(h2)')) {
                  if (el.children.length === 0) out[el.id] = el.textContent.trim();
                }
                for (const id of ['breaker', 'stats', 'refresh']) out['class:' + id] = document.getElementById(id).className;
                return out;""");
    }

    private static ConditionFactory awaitPatiently() {
        return await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200));
    }

    private static void awaitPage(Predicate<Map<String, String>> condition) {
        awaitPatiently().until(OpsPageIT::page, condition);
    }

    private static Map<String, String> awaitNumbers(String... ids) {
        return awaitPatiently().until(OpsPageIT::page, p -> List.of(ids).stream()
                .allMatch(id -> p.get(id).matches("\\d+")));
    }

    private static String awaitChange(String id, String from) {
        return awaitPatiently().until(() -> page().get(id), now -> !now.equals(from));
    }

    private static long number(Map<String, String> page, String id) {
        String text = page.get(id);
        assertThat(text).as("#%s", id).matches("\\d+");
        return Long.parseLong(text);
    }

    private static Path screenshotPath() {
        return Path.of(System.getProperty("ops.screenshot", "target/ops-page.png"));
    }

    private static void screenshot(Path to) {
        try {
            Files.write(to, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
