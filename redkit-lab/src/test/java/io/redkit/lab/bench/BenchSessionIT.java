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
 * {@code bench session} end to end at the smoke preset: one JSON object with the fields of DESIGN §11, both
 * contenders loading every one of their sessions without an error, the ratio the aim reads, and the aim printed.
 * The throughput of so short a run on a shared machine means nothing and is not checked.
 */
class BenchSessionIT {

    private static final List<String> IMPLS = List.of("redkit", "spring-session", "lettuce-evalsha");

    @TempDir
    Path out;

    @Test
    void benchSessionSmokeRunPrintsOneWellFormedJsonObjectWithTheAim() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8), "bench", "session", "--rounds", "1",
                "--duration", "short", "--callers", "1,64", "--json", "--out", out.toString());
        assertThat(code).as("exit code; stderr: %s", stderr).isZero();

        JsonNode json = new ObjectMapper().readTree(stdout.toString(StandardCharsets.UTF_8));
        assertThat(json.path("bench").asText()).isEqualTo("session");
        assertThat(json.path("description").asText()).contains("Spring Session 4.");
        assertThat(json.path("rows")).hasSize(2 * IMPLS.size());
        for (JsonNode row : json.path("rows")) {
            assertThat(IMPLS).contains(row.path("impl").asText());
            assertThat(row.path("ops_per_s").asDouble()).as(row.toString()).isPositive();
            assertThat(row.path("p50_us").isNumber()).isTrue();
            assertThat(row.path("p99_us").isNumber()).isTrue();
            assertThat(row.path("errors").asLong()).as("errors of %s", row).isZero();
            assertThat(row.path("alloc_bytes_per_op").asDouble()).as(row.toString()).isPositive();
            assertThat(row.path("cpu_us_per_op").asDouble()).as(row.toString()).isPositive();
        }
        assertThat(json.path("ratios").path("redkit/spring-session@64").isNumber()).isTrue();
        assertThat(json.path("aims").findValuesAsText("ratio")).contains("redkit/spring-session@64",
                "redkit/lettuce-evalsha@1", "redkit/lettuce-evalsha@64", "alloc redkit/lettuce-evalsha@64");
        assertThat(json.path("ceiling").has("available")).isTrue();
        assertThat(Files.readString(out.resolve("session.md"))).contains("aim redkit/spring-session@64 ≥ 2.00");
    }
}
