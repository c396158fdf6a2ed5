package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.LabMain;

/**
 * {@code bench cache} end to end at the smoke preset: one JSON object with the fields of DESIGN §11 plus the miss
 * storm, in which redkit loads exactly once. The throughput figures of so short a run mean nothing and are not
 * checked; the load counts are not timing and are.
 */
class BenchCacheIT {

    private static final List<String> IMPLS = List.of("redkit", "lettuce+jackson", "spring", "redisson",
            "redkit-near-tracking", "redkit-near-pubsub", "redisson-local", "redkit-plain-pttl", "redkit-plain-get");
    private static final List<String> INVALIDATED = List.of("redkit-near-tracking",
            "redkit-near-tracking-foreign-set", "redkit-near-tracking-bcast", "redkit-near-pubsub", "redisson-local",
            "lettuce-tracking-floor");

    @TempDir
    Path out;

    @Test
    void benchCacheSmokeRunPrintsOneWellFormedJsonObjectAndRedkitLoadsOnceInTheMissStorm() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8), "bench", "cache", "--rounds", "1",
                "--duration", "short", "--json", "--out", out.toString());
        assertThat(code).as("exit code; stderr: %s", stderr).isZero();

        JsonNode json = new ObjectMapper().readTree(stdout.toString(StandardCharsets.UTF_8));
        assertThat(json.path("bench").asText()).isEqualTo("cache");
        assertThat(json.path("rows")).hasSize(3 * IMPLS.size() + 3 * 2);
        for (JsonNode row : json.path("rows")) {
            assertThat(IMPLS).contains(row.path("impl").asText());
            assertThat(row.path("callers").isInt()).isTrue();
            assertThat(row.path("ops_per_s").isNumber()).isTrue();
            assertThat(row.path("p50_us").isNumber()).isTrue();
            assertThat(row.path("p99_us").isNumber()).isTrue();
            assertThat(row.path("errors").asLong()).as("errors of %s", row).isZero();
        }
        for (String peer : List.of("lettuce+jackson", "spring", "redisson")) {
            assertThat(json.path("ratios").path("hit:redkit/" + peer + "@64").isNumber()).as(peer).isTrue();
        }
        assertThat(json.path("ratios").path("batch:redkit/lettuce+jackson@64").isNumber()).isTrue();
        assertThat(json.path("aims").findValuesAsText("ratio")).contains("batch:redkit/lettuce+jackson@1",
                "alloc hit:redkit/lettuce+jackson@64");
        assertThat(json.path("ceiling").has("available")).isTrue();

        JsonNode storm = json.path("miss_storm");
        assertThat(storm.path("callers").asInt()).isEqualTo(64);
        assertThat(storm.path("loader_ms").asInt()).isPositive();
        assertThat(storm.path("loads").path("redkit").asInt()).as("redkit loads in the miss storm").isEqualTo(1);
        assertThat(storm.path("loads").path("redkit-near-tracking").asInt()).isEqualTo(1);
        assertThat(storm.path("loads").path("redkit-near-pubsub").asInt()).isEqualTo(1);
        for (String impl : List.of("lettuce+jackson", "spring", "spring-locking", "redisson", "redisson-local")) {
            assertThat(storm.path("loads").path(impl).asInt()).as(impl).isBetween(1, 64);
        }
        storm.path("answered").forEach(n -> assertThat(n.asInt()).isEqualTo(64));

        JsonNode invalidation = json.path("near_invalidation");
        int samples = invalidation.path("samples").asInt();
        assertThat(samples).isPositive();
        assertThat(invalidation.path("rows").findValuesAsText("impl")).isEqualTo(INVALIDATED);
        for (JsonNode row : invalidation.path("rows")) {
            assertThat(row.path("measured").asInt() + row.path("lost").asInt()).as("%s", row).isEqualTo(samples);
            assertThat(row.path("measured").asInt()).as("%s", row).isPositive();
            assertThat(row.path("p50_us").asDouble()).as("%s", row).isPositive();
            assertThat(row.path("p99_us").asDouble()).as("%s", row).isGreaterThanOrEqualTo(row.path("p50_us")
                    .asDouble());
            assertThat(row.path("max_us").asDouble()).as("%s", row).isGreaterThanOrEqualTo(row.path("p99_us")
                    .asDouble());
        }
        assertThat(json.path("aims").findValuesAsText("ratio")).contains(
                "near_invalidation:redkit-near-tracking@1 p99_us", "near_invalidation:redkit-near-pubsub@1 p99_us",
                "hit:redkit-near-tracking@1 p50_us", "hit:redkit-near-pubsub@64 p50_us");
        // The floor is what the machine costs, not a near cache: nothing to aim at.
        assertThat(json.path("aims").findValuesAsText("ratio")).doesNotContain(
                "near_invalidation:lettuce-tracking-floor@1 p99_us");

        assertThat(Files.exists(out.resolve("cache.json"))).isTrue();
        assertThat(Files.readString(out.resolve("cache.md"))).contains("miss storm", "| redkit | 1 |",
                "near-cache invalidation");
        assertThat(Files.exists(out.resolve("cache.png"))).isTrue();
    }
}
