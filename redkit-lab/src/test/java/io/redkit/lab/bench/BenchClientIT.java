package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.LabMain;

/**
 * {@code bench client} end to end at the smoke preset: it runs, and stdout is one JSON object with the fields of
 * DESIGN §11; files are written only when asked. The figures of so short a run mean nothing and are not checked.
 */
class BenchClientIT {

    @TempDir
    Path out;

    @Test
    void benchClientSmokeRunPrintsOneWellFormedJsonObject() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8), "bench", "client", "--rounds", "1",
                "--duration", "short", "--json", "--out", out.toString());
        assertThat(code).as("exit code; stderr: %s", stderr).isZero();

        JsonNode json = new ObjectMapper().readTree(stdout.toString(StandardCharsets.UTF_8));
        assertThat(json.path("bench").asText()).isEqualTo("client");
        assertThat(json.path("rows").isArray()).isTrue();
        assertThat(json.path("rows")).hasSize(2 * 3 * 4);
        for (JsonNode row : json.path("rows")) {
            assertThat(row.path("impl").isTextual()).isTrue();
            assertThat(row.path("callers").isInt()).isTrue();
            assertThat(row.path("ops_per_s").isNumber()).isTrue();
            assertThat(row.path("p50_us").isNumber()).isTrue();
            assertThat(row.path("p99_us").isNumber()).isTrue();
        }
        assertThat(json.path("ratios").has("get:redkit/lettuce-sync@64")).isTrue();
        assertThat(json.path("ceiling").has("available")).isTrue();
        assertThat(Files.exists(out.resolve("client.json"))).isTrue();
        assertThat(Files.exists(out.resolve("client.md"))).isTrue();
        assertThat(Files.exists(out.resolve("client.png"))).isTrue();
    }

    @Test
    void jsonWithoutOutPrintsOneObjectAndWritesNoFile() throws Exception {
        // Where a run without --out used to write: docs/bench under the working directory, a tracked file there.
        Path wouldBe = Path.of("docs", "bench", "client.json");
        FileTime before = Files.exists(wouldBe) ? Files.getLastModifiedTime(wouldBe) : null;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8), "bench", "client", "--rounds", "1",
                "--duration", "short", "--callers", "1", "--json");
        assertThat(code).as("exit code; stderr: %s", stderr).isZero();

        List<JsonNode> objects = new ObjectMapper().readerFor(JsonNode.class)
                .<JsonNode>readValues(stdout.toString(StandardCharsets.UTF_8)).readAll();
        assertThat(objects).hasSize(1);
        assertThat(objects.get(0).path("bench").asText()).isEqualTo("client");
        assertThat(Files.exists(wouldBe) ? Files.getLastModifiedTime(wouldBe) : null).isEqualTo(before);
        assertThat(stderr.toString(StandardCharsets.UTF_8)).doesNotContain("wrote");
    }

    @Test
    void readmeRewritesTheBlockBesideItsFilesAndTheSummary() throws Exception {
        Path docs = Files.createDirectories(out.resolve("docs/bench"));
        Path readme = Files.writeString(docs.resolve("README.md"), "# Benchmarks\n\n<!-- bench:client:start -->\n"
                + "old\n<!-- bench:client:end -->\n\n## How a run is made\n", StandardCharsets.UTF_8);
        Path top = Files.writeString(out.resolve("README.md"), "# redkit\n\n<!-- bench:summary:start -->\nold\n"
                + "<!-- bench:summary:end -->\n\n## Modules\n", StandardCharsets.UTF_8);
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8), "bench", "client", "--rounds", "1",
                "--duration", "short", "--callers", "1", "--readme", "--readme-file", readme.toString(),
                "--summary-file", top.toString());
        assertThat(code).as("exit code; stderr: %s", stderr).isZero();

        // The files go beside the README whose block was rewritten, and the block is the run's NAME.md.
        String md = Files.readString(docs.resolve("client.md"), StandardCharsets.UTF_8).strip();
        assertThat(docs.resolve("client.json")).isRegularFile();
        assertThat(docs.resolve("client.png")).isRegularFile();
        assertThat(Files.readString(readme, StandardCharsets.UTF_8)).contains("<!-- bench:client:start -->\n" + md
                + "\n<!-- bench:client:end -->").contains("## How a run is made").doesNotContain("old");
        assertThat(Files.readString(top, StandardCharsets.UTF_8)).contains(BenchSummary.of(docs).strip())
                .contains("| [client](docs/bench/README.md#bench-client) | get | 1 |").contains("## Modules")
                .doesNotContain("old");
    }
}
