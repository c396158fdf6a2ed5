package io.redkit.lab.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.redkit.lab.bench.BenchReport.AimResult;
import io.redkit.lab.bench.BenchReport.CeilingRow;
import io.redkit.lab.bench.BenchReport.Row;

/**
 * Throughput ratios of the subject (the first contender) to every other contender and to the ceiling, keyed
 * {@code subject/other@callers}, with {@code op:} in front when the benchmark measures several ops. Between
 * contenders it is the median of per-round ratios; to the ceiling (one run) the subject's median over it.
 */
final class Ratios {

    private Ratios() {
    }

    static Map<String, Double> of(Benchmark benchmark, List<Row> rows, List<CeilingRow> ceiling) {
        Map<String, Double> ratios = new LinkedHashMap<>();
        forEachSubjectRow(benchmark, rows, (prefix, s, ofOp) -> {
            for (Row other : ofOp) {
                if (other.callers() == s.callers() && !other.impl().equals(s.impl()) && other.opsPerS() > 0) {
                    ratios.put(key(prefix, s.impl(), other.impl(), s.callers()), paired(s, other));
                }
            }
            for (CeilingRow c : ceiling) {
                if (c.op().equals(s.op()) && c.callers() == s.callers() && c.opsPerS() > 0) {
                    ratios.put(key(prefix, s.impl(), RedisBenchmarkTool.NAME, s.callers()), ratio(s.opsPerS(),
                            c.opsPerS()));
                }
            }
        });
        return ratios;
    }

    /**
     * The subject's bytes allocated per op over each other contender's at the same caller count, keyed like the
     * throughput ratios; none where either side has no figure.
     */
    static Map<String, Double> allocation(Benchmark benchmark, List<Row> rows) {
        Map<String, Double> ratios = new LinkedHashMap<>();
        forEachSubjectRow(benchmark, rows, (prefix, s, ofOp) -> {
            for (Row other : ofOp) {
                if (s.allocBytesPerOp() != null && other.callers() == s.callers()
                        && !other.impl().equals(s.impl()) && other.allocBytesPerOp() != null
                        && other.allocBytesPerOp() > 0) {
                    ratios.put(key(prefix, s.impl(), other.impl(), s.callers()),
                            ratio(s.allocBytesPerOp(), other.allocBytesPerOp()));
                }
            }
        });
        return ratios;
    }

    private interface SubjectRow {
        void accept(String prefix, Row subject, List<Row> rowsOfOp);
    }

    /** Calls {@code each} with every row of the subject (the first contender of an op), and all rows of its op. */
    private static void forEachSubjectRow(Benchmark benchmark, List<Row> rows, SubjectRow each) {
        for (String op : benchmark.ops()) {
            String prefix = benchmark.ops().size() > 1 ? op + ":" : "";
            List<Row> ofOp = rows.stream().filter(r -> r.op().equals(op)).toList();
            if (ofOp.isEmpty()) {
                continue;
            }
            String subject = ofOp.get(0).impl();
            for (Row s : ofOp) {
                if (s.impl().equals(subject)) {
                    each.accept(prefix, s, ofOp);
                }
            }
        }
    }

    /**
     * Each aim of the benchmark, for every op, checked against the measured ratios: throughput aims against
     * {@code ratios}, allocation aims against {@code allocation}.
     */
    static List<AimResult> aims(Benchmark benchmark, Map<String, Double> ratios, Map<String, Double> allocation) {
        List<AimResult> results = new ArrayList<>();
        for (Benchmark.Aim aim : benchmark.aims()) {
            for (String op : benchmark.ops()) {
                String prefix = benchmark.ops().size() > 1 ? op + ":" : "";
                String key = key(prefix, aim.subject(), aim.against(), aim.callers());
                Double value = (aim.allocation() ? allocation : ratios).get(key);
                if (value == null) {
                    continue; // not measured in this run (e.g. --callers without 64, or a contender of another op)
                }
                results.add(aim.allocation()
                        ? new AimResult("alloc " + key, value, null, aim.bound(), value <= aim.bound())
                        : new AimResult(key, value, aim.bound(), null, value >= aim.bound()));
            }
        }
        return results;
    }

    /**
     * Each latency aim of the benchmark, checked against the figure it names: an op's row, or an extra's latency.
     * An aim whose figure this run did not measure is left out, as above.
     */
    static List<AimResult> latencyAims(Benchmark benchmark, List<Row> rows, List<Benchmark.Extra> extras) {
        List<Benchmark.Latency> measured = new ArrayList<>();
        rows.forEach(r -> measured.add(new Benchmark.Latency(r.op(), r.impl(), r.callers(), r.p50Us(), r.p99Us(),
                r.maxUs())));
        extras.forEach(e -> measured.addAll(e.latencies()));
        List<AimResult> results = new ArrayList<>();
        for (Benchmark.LatencyAim aim : benchmark.latencyAims()) {
            measured.stream().filter(l -> l.op().equals(aim.op()) && l.impl().equals(aim.impl())
                    && l.callers() == aim.callers()).findFirst().ifPresent(l -> {
                        double value = aim.percentile().of(l);
                        results.add(aim.below()
                                ? new AimResult(aim.key(), value, null, null, aim.boundUs(), value < aim.boundUs())
                                : new AimResult(aim.key(), value, null, aim.boundUs(), null, value <= aim.boundUs()));
                    });
        }
        return results;
    }

    static String key(String prefix, String subject, String other, int callers) {
        return prefix + subject + "/" + other + "@" + callers;
    }

    /**
     * The median of the per-round ratios: in each round the contenders run back to back, so a change of load from
     * outside the run (a build on the same machine) hits both sides of a round's ratio alike.
     */
    static double paired(Row subject, Row other) {
        List<Double> a = subject.roundsOpsPerS();
        List<Double> b = other.roundsOpsPerS();
        List<Double> perRound = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (b.get(i) > 0) {
                perRound.add(a.get(i) / b.get(i));
            }
        }
        return perRound.isEmpty() ? ratio(subject.opsPerS(), other.opsPerS())
                : Math.round(BenchRun.median(perRound.stream().sorted().toList()) * 1000) / 1000.0;
    }

    private static double ratio(double a, double b) {
        return Math.round(a / b * 1000) / 1000.0;
    }
}
