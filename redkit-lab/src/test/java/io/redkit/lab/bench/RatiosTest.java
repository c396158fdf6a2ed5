package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.redkit.lab.bench.BenchReport.Row;

class RatiosTest {

    @Test
    void pairedRatioIgnoresLoadThatHitsBothSidesOfARound() {
        // Round 2 ran while something else loaded the machine: both contenders lost half their throughput.
        Row subject = row("redkit", List.of(95.0, 47.5, 95.0));
        Row other = row("lettuce-sync", List.of(100.0, 50.0, 100.0));
        assertThat(Ratios.paired(subject, other)).isEqualTo(0.95);
    }

    @Test
    void ratioKeysCarryTheOpOnlyWhenABenchmarkHasSeveral() {
        assertThat(Ratios.key("", "redkit", "redisson", 64)).isEqualTo("redkit/redisson@64");
        assertThat(Ratios.key("get:", "redkit", "lettuce-sync", 64)).isEqualTo("get:redkit/lettuce-sync@64");
    }

    private static Row row(String impl, List<Double> rounds) {
        return new Row(impl, "get", 64, BenchRun.median(rounds.stream().sorted().toList()), 0, 0, rounds, 0, 0, 0, 0,
                0, 0, null);
    }
}
