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
        for (String op : benchmark.ops()) {
            String prefix = benchmark.ops().size() > 1 ? op + ":" : "";
            List<Row> ofOp = rows.stream().filter(r -> r.op().equals(op)).toList();
            if (ofOp.isEmpty()) {
                continue;
            }
            String subject = ofOp.get(0).impl();
            for (Row s : ofOp) {
                if (!s.impl().equals(subject)) {
                    continue;
                }
                for (Row other : ofOp) {
                    if (other.callers() == s.callers() && !other.impl().equals(subject) && other.opsPerS() > 0) {
                        ratios.put(key(prefix, subject, other.impl(), s.callers()), paired(s, other));
                    }
                }
                for (CeilingRow c : ceiling) {
                    if (c.op().equals(op) && c.callers() == s.callers() && c.opsPerS() > 0) {
                        ratios.put(key(prefix, subject, RedisBenchmarkTool.NAME, s.callers()), ratio(s.opsPerS(),
                                c.opsPerS()));
                    }
                }
            }
        }
        return ratios;
    }

    /** Each aim of the benchmark, for every op, checked against the measured ratios. */
    static List<AimResult> aims(Benchmark benchmark, Map<String, Double> ratios) {
        List<AimResult> results = new ArrayList<>();
        for (Benchmark.Aim aim : benchmark.aims()) {
            for (String op : benchmark.ops()) {
                String prefix = benchmark.ops().size() > 1 ? op + ":" : "";
                String key = key(prefix, aim.subject(), aim.against(), aim.callers());
                Double value = ratios.get(key);
                if (value == null) {
                    continue; // not measured in this run (e.g. --callers without 64)
                }
                results.add(new AimResult(key, value, aim.atLeast(), value >= aim.atLeast()));
            }
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
