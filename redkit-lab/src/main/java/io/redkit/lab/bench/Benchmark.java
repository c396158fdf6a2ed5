package io.redkit.lab.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One comparison: the contenders a user could pick for the same work, measured side by side on one redis-server.
 * The first contender is the subject (redkit); every ratio compares it with the others. A benchmark may measure
 * several operations (client: GET and SET), each reported as its own section; add an implementation to
 * {@link Benchmarks#all()} to make it runnable as {@code bench NAME} and part of {@code bench all}.
 */
public interface Benchmark {

    /** The name on the command line and in the README markers ({@code bench:NAME:start}). */
    String name();

    /** One sentence for the table title and the README. */
    String description();

    /** The operations measured, each a section of its own; a benchmark of one kind of work names just that. */
    default List<String> ops() {
        return List.of(name());
    }

    /** The name of the ceiling in ratios and aims ({@code redkit/redis-benchmark@64}). */
    String CEILING = RedisBenchmarkTool.NAME;

    /** Fresh, not yet set up contenders for {@code op}; the first is the subject of every ratio. */
    List<Contender> contenders(String op);

    /** Called once per op before the contenders are set up: load the key space, load scripts. */
    default void prepare(String op, BenchEnv env) throws Exception {
    }

    /** The redis-benchmark arguments for the same command, when it has one; called after {@link #prepare}. */
    default Optional<Ceiling> ceiling(String op, BenchEnv env) {
        return Optional.empty();
    }

    /**
     * Measurements beyond the timed rounds (the cache's miss storm), run once after them on the same server; each
     * becomes a top-level field of the report's JSON and a small table under the main one.
     */
    default List<Extra> extras(BenchEnv env) throws Exception {
        return List.of();
    }

    /** Ratios the issue sets as a floor, checked and reported after the run. */
    default List<Aim> aims() {
        return List.of();
    }

    /** Latencies the issue bounds (a near-cache hit's p50, an invalidation's p99), checked and reported beside. */
    default List<LatencyAim> latencyAims() {
        return List.of();
    }

    /**
     * One extra measurement: {@code json} under the report field {@code field} (snake_case, e.g. {@code miss_storm}),
     * and the same as a table with a title for the Markdown and the plain-text output.
     */
    record Extra(String field, String title, List<String> header, List<List<String>> rows, Object json,
            List<Latency> latencies) {

        /** Copies the lists. */
        public Extra {
            header = List.copyOf(header);
            rows = rows.stream().map(List::copyOf).toList();
            latencies = List.copyOf(latencies);
        }

        /** An extra with no latency a {@link LatencyAim} could bound. */
        public Extra(String field, String title, List<String> header, List<List<String>> rows, Object json) {
            this(field, title, header, rows, json, List.of());
        }
    }

    /**
     * The latency figures of {@code impl} at {@code callers} in {@code op}: an op's row, or an extra's measurement
     * (its {@code op} then the extra's field, e.g. {@code near_invalidation}).
     */
    record Latency(String op, String impl, int callers, double p50Us, double p99Us, double maxUs) {
    }

    /**
     * A bound on one latency figure, in µs: {@code op:impl@callers p50_us} at most {@code boundUs}, or with
     * {@code below} less than it (a near-cache hit p50 &lt; 1 µs, an invalidation p99 ≤ 1000 µs).
     */
    record LatencyAim(String op, String impl, int callers, Percentile percentile, double boundUs, boolean below) {

        /** The figure's key in the report's aims, e.g. {@code hit:redkit-near-tracking@1 p50_us}. */
        public String key() {
            return op + ":" + impl + "@" + callers + " " + percentile.field;
        }

        /** The aim at each caller count of {@link Aim#RAW_CALLERS}. */
        public static List<LatencyAim> atRawCallers(String op, String impl, Percentile percentile, double boundUs,
                boolean below) {
            return Aim.RAW_CALLERS.stream().map(c -> new LatencyAim(op, impl, c, percentile, boundUs, below))
                    .toList();
        }
    }

    /** A latency percentile, named as its JSON field. */
    enum Percentile {
        P50("p50_us"), P99("p99_us"), MAX("max_us");

        final String field;

        Percentile(String field) {
            this.field = field;
        }

        /** This percentile of {@code latency}. */
        public double of(Latency latency) {
            return switch (this) {
                case P50 -> latency.p50Us();
                case P99 -> latency.p99Us();
                case MAX -> latency.maxUs();
            };
        }
    }

    /**
     * A bound on {@code subject/against@callers}: a floor on the throughput ratio (redkit ≥ 0.9 × lettuce-sync at 64
     * callers), or with {@code allocation} a ceiling on the ratio of bytes allocated per op (≤ 1.5 × raw).
     */
    record Aim(String subject, String against, int callers, double bound, boolean allocation) {

        /** What redkit must reach next to raw Lettuce doing the same commands, at every caller count. */
        public static final double RAW_THROUGHPUT = 0.95;
        /** At most this many times the bytes raw Lettuce allocates per op for the same commands. */
        public static final double RAW_ALLOCATION = 1.5;
        /** The caller counts the raw aims hold at. */
        public static final List<Integer> RAW_CALLERS = List.of(1, 16, 64);

        /** A throughput floor. */
        public Aim(String subject, String against, int callers, double atLeast) {
            this(subject, against, callers, atLeast, false);
        }

        /**
         * The aims against the raw contender (plain Lettuce doing exactly the subject's commands): throughput
         * ≥ {@value #RAW_THROUGHPUT} × and allocation ≤ {@value #RAW_ALLOCATION} × per op at 1, 16 and 64 callers.
         */
        public static List<Aim> againstRaw(String subject, String raw) {
            List<Aim> aims = new ArrayList<>();
            for (int callers : RAW_CALLERS) {
                aims.add(new Aim(subject, raw, callers, RAW_THROUGHPUT, false));
            }
            for (int callers : RAW_CALLERS) {
                aims.add(new Aim(subject, raw, callers, RAW_ALLOCATION, true));
            }
            return aims;
        }
    }
}
