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
 * {@code bench stream} at the smoke preset, one producer: every contender moves messages end to end without an
 * error, the ratios the issue aims at are printed, every consumer drains the backlog of the drain table, and the
 * end-to-end table counts every message of its steady run. The throughput figures of so short a run mean nothing
 * and are not checked.
 */
class BenchStreamIT {

    private static final List<String> IMPLS = List.of("redkit", "spring", "redisson", "lettuce-raw");

    @TempDir
    Path out;

    @Test
    void benchStreamSmokeRunCoversEveryContenderAndPrintsTheAimedRatios() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8), "bench", "stream", "--rounds", "1",
                "--duration", "short", "--callers", "1", "--json", "--out", out.toString());
        assertThat(code).as("exit code; stderr: %s", stderr).isZero();

        JsonNode json = new ObjectMapper().readTree(stdout.toString(StandardCharsets.UTF_8));
        assertThat(json.path("bench").asText()).isEqualTo("stream");
        assertThat(json.path("rows").findValuesAsText("impl")).containsExactlyElementsOf(IMPLS);
        for (JsonNode row : json.path("rows")) {
            assertThat(row.path("ops_per_s").asDouble()).as(row.toString()).isPositive();
            assertThat(row.path("errors").asLong()).as(row.toString()).isZero();
        }
        assertThat(json.path("ratios").path("redkit/spring@1").isNumber()).isTrue();
        assertThat(json.path("ratios").path("redkit/lettuce-raw@1").isNumber()).isTrue();
        assertThat(json.path("aims").findValuesAsText("ratio")).contains("redkit/spring@1", "redkit/lettuce-raw@1");
        JsonNode drain = json.path("drain");
        assertThat(drain.path("messages").asInt()).isPositive();
        for (String impl : IMPLS) {
            assertThat(drain.path("msg_per_s").path(impl).asDouble()).as(impl).isPositive();
        }
        assertThat(drain.path("ratios").path("redkit/spring").isNumber()).isTrue();
        assertThat(drain.path("ratios").path("redkit/lettuce-raw").isNumber()).isTrue();
        JsonNode endToEnd = json.path("end_to_end");
        assertThat(endToEnd.path("rate_per_s").asInt()).isPositive();
        for (String impl : IMPLS) {
            JsonNode figures = endToEnd.path("impls").path(impl);
            assertThat(figures.path("handled").asLong()).as(impl).isEqualTo(endToEnd.path("messages").asLong());
            assertThat(figures.path("p99_us").asDouble()).as(impl).isPositive();
        }
        System.out.printf("[figures] BenchStreamIT smoke (shared machine, 1 round of 300 ms): %s; ratios %s; drain"
                + " %s%n", json.path("rows").findValuesAsText("ops_per_s"), json.path("ratios"), drain);
        assertThat(Files.readString(out.resolve("stream.md"))).contains("drain:", "end-to-end latency");
    }
}
