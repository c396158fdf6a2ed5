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

/** {@code bench lock} at the smoke preset, one caller count: every contender completes cycles, none errs. */
class BenchLockIT {

    @TempDir
    Path out;

    @Test
    void benchLockSmokeRunCoversEveryContender() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8), "bench", "lock", "--rounds", "1",
                "--duration", "short", "--callers", "4", "--json", "--out", out.toString());
        assertThat(code).as("exit code; stderr: %s", stderr).isZero();

        JsonNode json = new ObjectMapper().readTree(stdout.toString(StandardCharsets.UTF_8));
        assertThat(json.path("bench").asText()).isEqualTo("lock");
        assertThat(json.path("rows").findValuesAsText("impl")).contains("redkit", "redkit-fenced", "redisson",
                "redisson-fenced", "lettuce-evalsha");
        for (JsonNode row : json.path("rows")) {
            assertThat(row.path("ops_per_s").asDouble()).as(row.toString()).isPositive();
            assertThat(row.path("errors").asLong()).as(row.toString()).isZero();
        }
        assertThat(json.path("ratios").has("redkit/redisson@4")).isTrue();
    }
}
