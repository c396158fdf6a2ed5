package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.redkit.lab.bench.BenchReport.AimResult;
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

    @Test
    void allocationRatioIsTheSubjectsBytesPerOpOverTheOthersAtTheSameCallers() {
        Benchmark bench = bench(List.of());
        List<Row> rows = List.of(row("redkit", 1, 300.0), row("lettuce-sync", 1, 200.0), row("redkit", 64, 900.0),
                row("lettuce-sync", 64, 600.0), row("unmeasured", 64, null));
        assertThat(Ratios.allocation(bench, rows))
                .containsExactly(Map.entry("get:redkit/lettuce-sync@1", 1.5), Map.entry("get:redkit/lettuce-sync@64",
                        1.5));
    }

    @Test
    void anAllocationAimIsACeilingAndAThroughputAimAFloor() {
        Benchmark bench = bench(Benchmark.Aim.againstRaw("redkit", "lettuce-sync"));
        Map<String, Double> throughput = Map.of("get:redkit/lettuce-sync@1", 0.96, "get:redkit/lettuce-sync@64", 0.94);
        Map<String, Double> allocation = Map.of("get:redkit/lettuce-sync@1", 1.5, "get:redkit/lettuce-sync@64", 1.51);

        List<AimResult> aims = Ratios.aims(bench, throughput, allocation);

        assertThat(aims).containsExactly(
                new AimResult("get:redkit/lettuce-sync@1", 0.96, 0.95, null, true),
                new AimResult("get:redkit/lettuce-sync@64", 0.94, 0.95, null, false),
                new AimResult("alloc get:redkit/lettuce-sync@1", 1.5, null, 1.5, true),
                new AimResult("alloc get:redkit/lettuce-sync@64", 1.51, null, 1.5, false));
    }

    @Test
    void againstRawAimsCoverOneSixteenAndSixtyFourCallers() {
        assertThat(Benchmark.Aim.againstRaw("redkit", "raw")).extracting(Benchmark.Aim::callers,
                Benchmark.Aim::bound, Benchmark.Aim::allocation).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, 0.95, false),
                        org.assertj.core.groups.Tuple.tuple(16, 0.95, false),
                        org.assertj.core.groups.Tuple.tuple(64, 0.95, false),
                        org.assertj.core.groups.Tuple.tuple(1, 1.5, true),
                        org.assertj.core.groups.Tuple.tuple(16, 1.5, true),
                        org.assertj.core.groups.Tuple.tuple(64, 1.5, true));
    }

    private static Benchmark bench(List<Benchmark.Aim> aims) {
        return new Benchmark() {
            @Override
            public String name() {
                return "client";
            }

            @Override
            public String description() {
                return "d";
            }

            @Override
            public List<String> ops() {
                return List.of("get", "set");
            }

            @Override
            public List<Contender> contenders(String op) {
                return List.of();
            }

            @Override
            public List<Aim> aims() {
                return aims;
            }
        };
    }

    private static Row row(String impl, int callers, Double bytesPerOp) {
        return new Row(impl, "get", callers, 100, 100, 100, List.of(100.0), 0, 0, 0, 0, 10, 0, null, bytesPerOp, 1.0);
    }

    private static Row row(String impl, List<Double> rounds) {
        return new Row(impl, "get", 64, BenchRun.median(rounds.stream().sorted().toList()), 0, 0, rounds, 0, 0, 0, 0,
                0, 0, null, null, null);
    }
}
