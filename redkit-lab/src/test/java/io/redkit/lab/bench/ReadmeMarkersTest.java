package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReadmeMarkersTest {

    @Test
    void replacesOnlyWhatStandsBetweenTheMarkers() {
        String readme = "# title\n\n<!-- bench:client:start -->\nold table\n<!-- bench:client:end -->\n\n## next\n";
        String updated = ReadmeMarkers.replace(readme, "client", "new table\n");
        assertThat(updated).isEqualTo(
                "# title\n\n<!-- bench:client:start -->\nnew table\n<!-- bench:client:end -->\n\n## next\n");
    }

    @Test
    void leavesOtherBenchmarksBlocksAlone() {
        String readme = "<!-- bench:lock:start -->\nlock\n<!-- bench:lock:end -->\n"
                + "<!-- bench:client:start -->\n<!-- bench:client:end -->\n";
        assertThat(ReadmeMarkers.replace(readme, "client", "c")).contains("<!-- bench:lock:start -->\nlock\n")
                .contains("<!-- bench:client:start -->\nc\n<!-- bench:client:end -->");
    }

    @Test
    void appendsABlockForABenchmarkWithoutMarkers() {
        assertThat(ReadmeMarkers.replace("# title\n", "cache", "t"))
                .isEqualTo("# title\n\n<!-- bench:cache:start -->\nt\n<!-- bench:cache:end -->\n");
    }

    @Test
    void refusesAnEndMarkerBeforeItsStart() {
        assertThatThrownBy(() -> ReadmeMarkers.replace("<!-- bench:client:end --><!-- bench:client:start -->",
                "client", "t")).hasMessageContaining("bench:client");
    }
}
