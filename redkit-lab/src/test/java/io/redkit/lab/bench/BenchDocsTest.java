package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The benchmark figures a reader sees are the ones the last run wrote, never edited by hand and never stale:
 * docs/bench/README.md holds each benchmark's table as its NAME.md, and the top-level README's summary is the one
 * {@link BenchSummary} makes from the NAME.json files. {@code bench all} rewrites all of them together.
 */
class BenchDocsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOCS = ROOT.resolve("docs/bench");

    @Test
    void everyBenchmarksTableInDocsBenchReadmeIsTheOneItsRunWrote() throws IOException {
        String readme = read(DOCS.resolve("README.md"));
        for (String name : Benchmarks.names()) {
            Path md = DOCS.resolve(name + ".md");
            assertThat(md).as("docs/bench/%s.md (bench all writes it)", name).isRegularFile();
            assertThat(block(readme, name)).as("the bench:%s block of docs/bench/README.md", name)
                    .isEqualTo(read(md).strip());
        }
    }

    @Test
    void theTopLevelReadmesSummaryIsMadeFromTheRunsJson() throws IOException {
        assertThat(block(read(ROOT.resolve("README.md")), BenchSummary.BLOCK))
                .as("README.md's bench:summary block; regenerate with bench all")
                .isEqualTo(BenchSummary.of(DOCS).strip());
    }

    private static String block(String text, String name) {
        Matcher m = Pattern.compile(Pattern.quote(ReadmeMarkers.start(name)) + "\n(.*?)\n?"
                + Pattern.quote(ReadmeMarkers.end(name)), Pattern.DOTALL).matcher(text);
        assertThat(m.find()).as("a bench:%s block", name).isTrue();
        return m.group(1).strip();
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
