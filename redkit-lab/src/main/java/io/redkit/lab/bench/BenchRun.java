package io.redkit.lab.bench;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.HdrHistogram.Histogram;

import io.redkit.lab.bench.BenchReport.CeilingReport;
import io.redkit.lab.bench.BenchReport.CeilingRow;
import io.redkit.lab.bench.BenchReport.Row;

/**
 * Runs one benchmark: for each op and each caller count, every contender gets a warm-up, then the contenders take
 * turns round after round (see {@link #order}: none always first, last, or after the same one), then
 * redis-benchmark runs the same command at the same concurrency for the ceiling.
 */
public final class BenchRun {

    private final Benchmark benchmark;
    private final BenchEnv env;
    private final BenchSettings settings;
    private final Progress progress;
    private final Optional<RedisBenchmarkTool> tool;
    private final Map<String, String> peers;

    BenchRun(Benchmark benchmark, BenchEnv env, BenchSettings settings, Progress progress,
            Optional<RedisBenchmarkTool> tool, Map<String, String> peers) {
        this.benchmark = benchmark;
        this.env = env;
        this.settings = settings;
        this.progress = progress;
        this.tool = tool;
        this.peers = peers;
    }

    /** Runs every op of the benchmark and returns the report. */
    BenchReport run(String command) throws Exception {
        String startedAt = Instant.now().toString();
        String loadStart = Machine.loadAverage();
        long start = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        List<CeilingRow> ceilingRows = new ArrayList<>();
        List<String> ceilingErrors = new ArrayList<>();
        boolean anyCeiling = false;
        for (String op : benchmark.ops()) {
            benchmark.prepare(op, env);
            Optional<Ceiling> ceiling = benchmark.ceiling(op, env);
            anyCeiling |= ceiling.isPresent();
            List<Contender> contenders = benchmark.contenders(op);
            try {
                for (Contender c : contenders) {
                    c.setup(env);
                }
                for (int callers : settings.callers()) {
                    List<Row> measured = measure(op, contenders, callers);
                    rows.addAll(measured);
                    if (ceiling.isPresent() && tool.isPresent()) {
                        ceiling(op, ceiling.get(), callers, measured, ceilingErrors).ifPresent(ceilingRows::add);
                    }
                }
            } finally {
                for (Contender c : contenders) {
                    c.close();
                }
            }
        }
        List<Benchmark.Extra> extras = benchmark.extras(env);
        progress.done();
        CeilingReport ceiling = ceilingReport(anyCeiling, ceilingRows, ceilingErrors);
        Map<String, Double> ratios = Ratios.of(benchmark, rows, ceiling.rows());
        Map<String, Double> allocation = Ratios.allocation(benchmark, rows);
        BenchReport.Settings s = new BenchReport.Settings(settings.callers(), settings.rounds(),
                settings.round().toMillis(), settings.warmup().toMillis(), settings.preset());
        List<BenchReport.AimResult> aims = new ArrayList<>(Ratios.aims(benchmark, ratios, allocation));
        aims.addAll(Ratios.latencyAims(benchmark, rows, extras));
        return new BenchReport(benchmark.name(), benchmark.description(), command, env.describe(), startedAt,
                (System.nanoTime() - start) / 1_000_000, s, Machine.describe(loadStart), benchmark.ops(), rows,
                ratios, allocation, aims, ceiling, peers, extras);
    }

    private List<Row> measure(String op, List<Contender> contenders, int callers) throws InterruptedException {
        int n = contenders.size();
        List<List<RoundRunner.Round>> rounds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rounds.add(new ArrayList<>());
        }
        try (RoundRunner runner = new RoundRunner(callers)) {
            if (!settings.warmup().isZero()) {
                for (Contender c : contenders) {
                    progress.show(String.format(Locale.ROOT, "[%s %s] %d callers: warm-up %s", benchmark.name(), op,
                            callers, c.name()));
                    runner.run(c, settings.warmup());
                }
            }
            for (int r = 0; r < settings.rounds(); r++) {
                for (int i : order(r, n)) {
                    RoundRunner.Round round = runner.run(contenders.get(i), settings.round());
                    rounds.get(i).add(round);
                    progress.show(String.format(Locale.ROOT, "[%s %s] %d callers: round %d/%d %-14s %,10.0f ops/s",
                            benchmark.name(), op, callers, r + 1, settings.rounds(), contenders.get(i).name(),
                            round.opsPerSecond()));
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(row(contenders.get(i).name(), op, callers, rounds.get(i)));
        }
        return rows;
    }

    /**
     * The contenders' turns in round {@code round}: each round starts one further along (A B C D, B A D C, C D A B,
     * D C B A …) and every other round runs backwards, so that no contender always runs first or last, nor always
     * right after the same one. Always after the same one, a contender inherits that one's leftovers each round (its
     * garbage to collect, its keys expiring on the server): a bias that forward turns alone (A B C, B C A …) keep.
     */
    static int[] order(int round, int n) {
        int[] order = new int[n];
        int step = round % 2 == 0 ? 1 : n - 1;
        for (int k = 0; k < n; k++) {
            order[k] = (round + k * step) % n;
        }
        return order;
    }

    private static Row row(String impl, String op, int callers, List<RoundRunner.Round> rounds) {
        Histogram all = new Histogram(RoundRunner.LOWEST_NANOS, RoundRunner.MAX_NANOS, 3);
        List<Double> perRound = new ArrayList<>();
        long calls = 0;
        long errors = 0;
        Costs.Spent spent = Costs.Spent.NONE;
        Throwable first = null;
        for (RoundRunner.Round r : rounds) {
            spent = spent.plus(r.spent());
            all.add(r.latency());
            perRound.add(round1(r.opsPerSecond()));
            calls += r.ops();
            errors += r.errors();
            first = first == null ? r.firstError() : first;
        }
        List<Double> sorted = perRound.stream().sorted().toList();
        return new Row(impl, op, callers, round1(median(sorted)), sorted.get(0), sorted.get(sorted.size() - 1),
                perRound, micros(all.getValueAtPercentile(50)), micros(all.getValueAtPercentile(99)),
                micros(all.getValueAtPercentile(99.9)), micros(all.getMaxValue()), calls, errors,
                first == null ? null : first.getClass().getSimpleName() + ": " + first.getMessage(),
                spent.bytesPerOp(calls), spent.cpuMicrosPerOp(calls));
    }

    private Optional<CeilingRow> ceiling(String op, Ceiling ceiling, int callers, List<Row> measured,
            List<String> errors) {
        // Sized to run about as long as two rounds of the subject (the server is usually faster still); not of the
        // fastest contender, which may not go to the server at all (a near-cache hit).
        double subject = measured.isEmpty() ? 10_000 : measured.get(0).opsPerS();
        long requests = Math.max(2_000, Math.min(20_000_000L,
                (long) (subject * settings.round().toMillis() / 1000.0 * 2)));
        progress.show(String.format(Locale.ROOT, "[%s %s] %d callers: %s -n %d", benchmark.name(), op, callers,
                RedisBenchmarkTool.NAME, requests));
        try {
            RedisBenchmarkTool.Result r = tool.orElseThrow().run(env, ceiling, callers, requests);
            return Optional.of(new CeilingRow(op, callers, round1(r.opsPerS()), round1(r.p50Us()), round1(r.p99Us()),
                    requests, r.command()));
        } catch (IOException | RuntimeException e) {
            errors.add(op + "@" + callers + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    private CeilingReport ceilingReport(boolean any, List<CeilingRow> rows, List<String> errors) {
        if (tool.isEmpty()) {
            return new CeilingReport(false, RedisBenchmarkTool.NAME, RedisBenchmarkTool.missingReason(), List.of());
        }
        String reason = !any ? RedisBenchmarkTool.NAME + " has no equivalent of this benchmark's command"
                : errors.isEmpty() ? null : String.join("; ", errors);
        return new CeilingReport(!rows.isEmpty(), tool.get().version(), reason, rows);
    }

    static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static double micros(long nanos) {
        return round1(nanos / 1000.0);
    }

    static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** Shared-machine facts: cores, Java, load average before and after. */
    static final class Machine {
        private Machine() {
        }

        static String loadAverage() {
            try {
                String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
                return f[0] + " " + f[1] + " " + f[2];
            } catch (IOException | RuntimeException e) {
                return "unknown";
            }
        }

        static BenchReport.Machine describe(String loadStart) {
            return new BenchReport.Machine(Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), loadStart,
                    loadAverage());
        }
    }
}
