package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.LabMain;

/**
 * {@code bench limit} at the smoke preset, one caller count: every contender decides on both ops without an error,
 * the aims' ratios are there, and over-admission is counted on the hot key (and is zero) for every contender.
 */
class BenchLimitIT {

    @TempDir
    Path out;

    @Test
    void benchLimitSmokeRunCoversEveryContenderAndCountsOverAdmission() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8), "bench", "limit", "--rounds", "1",
                "--duration", "short", "--callers", "4", "--json", "--out", out.toString());
        assertThat(code).as("exit code; stderr: %s", stderr).isZero();

        JsonNode json = new ObjectMapper().readTree(stdout.toString(StandardCharsets.UTF_8));
        assertThat(json.path("bench").asText()).isEqualTo("limit");
        String[] contenders = {"redkit-gcra", "redkit-fixed", "redkit-gcra-observed", "bucket4j", "redisson",
                "lettuce-evalsha"};
        assertThat(json.path("rows").findValuesAsText("impl")).contains(contenders);
        assertThat(json.path("rows").findValuesAsText("op")).contains("hot-key", "10k-keys");
        for (JsonNode row : json.path("rows")) {
            assertThat(row.path("ops_per_s").asDouble()).as(row.toString()).isPositive();
            assertThat(row.path("errors").asLong()).as(row.toString()).isZero();
        }
        assertThat(json.path("ratios").has("hot-key:redkit-gcra/redisson@4")).isTrue();
        assertThat(json.path("ratios").has("hot-key:redkit-gcra/lettuce-evalsha@4")).isTrue();

        JsonNode admission = json.path("over_admission");
        assertThat(admission.findValuesAsText("impl")).contains(contenders);
        for (JsonNode row : admission) {
            assertThat(row.path("callers").asInt()).as(row.toString()).isEqualTo(4);
            assertThat(row.path("allowed").asLong()).as(row.toString()).isPositive()
                    .isLessThanOrEqualTo(row.path("decisions").asLong());
            assertThat(row.path("over").asLong()).as(row.toString()).isZero();
        }
    }
}
