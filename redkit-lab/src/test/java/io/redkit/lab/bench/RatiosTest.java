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
    void aLatencyAimBoundsARowsOrAnExtrasFigureStrictlyOrNotAndAnUnmeasuredOneIsLeftOut() {
        Benchmark bench = bench(List.of(), List.of(
                new Benchmark.LatencyAim("get", "near", 1, Benchmark.Percentile.P50, 1.0, true),
                new Benchmark.LatencyAim("get", "near", 64, Benchmark.Percentile.P50, 1.0, true),
                new Benchmark.LatencyAim("drop", "near", 1, Benchmark.Percentile.P99, 1000.0, false),
                new Benchmark.LatencyAim("drop", "other", 1, Benchmark.Percentile.P99, 1000.0, false)));
        Row hit = new Row("near", "get", 1, 100, 100, 100, List.of(100.0), 1.0, 2.0, 3.0, 4.0, 10, 0, null, null,
                null);
        Benchmark.Extra drop = new Benchmark.Extra("drop", "t", List.of("impl"), List.of(List.of("near")), "json",
                List.of(new Benchmark.Latency("drop", "near", 1, 200.0, 1000.0, 5000.0)));

        List<AimResult> aims = Ratios.latencyAims(bench, List.of(hit), List.of(drop));

        assertThat(aims).containsExactly(new AimResult("get:near@1 p50_us", 1.0, null, null, 1.0, false),
                new AimResult("drop:near@1 p99_us", 1000.0, null, 1000.0, null, true));
        assertThat(aims).extracting(AimResult::bound).containsExactly("< 1.00", "≤ 1000.00");
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
        return bench(aims, List.of());
    }

    private static Benchmark bench(List<Benchmark.Aim> aims, List<Benchmark.LatencyAim> latencyAims) {
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

            @Override
            public List<LatencyAim> latencyAims() {
                return latencyAims;
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
