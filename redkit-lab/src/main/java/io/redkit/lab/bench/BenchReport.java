package io.redkit.lab.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What one {@code bench NAME} run measured; field names are the JSON contract of DESIGN §11 (snake_case on
 * output): {@code bench}, {@code rows[]} ({@code impl}, {@code callers}, {@code ops_per_s}, {@code p50_us},
 * {@code p99_us}, …), {@code ratios} ({@code "redkit/lettuce-sync@64"}; prefixed with the op,
 * {@code "get:redkit/lettuce-sync@64"}, when the benchmark measures several ops), {@code alloc_ratios} (the
 * subject's bytes allocated per op over each other contender's, keyed the same way) and {@code ceiling}; a
 * benchmark's {@linkplain Benchmark#extras extras} (e.g. {@code miss_storm}) are top-level fields beside them.
 */
public record BenchReport(String bench, String description, String command, String target, String startedAt,
        long elapsedMs, Settings settings, Machine machine, List<String> ops, List<Row> rows,
        Map<String, Double> ratios, Map<String, Double> allocRatios, List<AimResult> aims, CeilingReport ceiling, Map<String, String> peers,
        @JsonIgnore List<Benchmark.Extra> extras) {

    /** Copies the extras (none for most benchmarks). */
    public BenchReport {
        extras = extras == null ? List.of() : List.copyOf(extras);
    }

    /** The extras as top-level JSON fields, in order. */
    @JsonAnyGetter
    public Map<String, Object> extraFields() {
        Map<String, Object> fields = new java.util.LinkedHashMap<>();
        extras.forEach(e -> fields.put(e.field(), e.json()));
        return fields;
    }

    /** How the run was paced. */
    public record Settings(List<Integer> callers, int rounds, long roundMs, long warmupMs, String duration) {
    }

    /** The machine the run shared, so that a reader can judge the figures. */
    public record Machine(int cores, String java, String loadAverageStart, String loadAverageEnd) {
    }

    /**
     * One contender at one caller count: throughput is the median of the rounds with their min and max; latency
     * percentiles are over every call of every measured round; {@code allocBytesPerOp} and {@code cpuUsPerOp} are
     * what the whole lab process allocated (every live thread: callers, Lettuce/Netty, the library's own) and
     * spent in CPU over the measured rounds, divided by the calls (null where the JVM cannot tell); redis-server's
     * CPU is not in it.
     */
    public record Row(String impl, String op, int callers, double opsPerS,
            @JsonProperty("ops_per_s_min") double opsPerSMin, @JsonProperty("ops_per_s_max") double opsPerSMax,
            List<Double> roundsOpsPerS, double p50Us, double p99Us, double p999Us, double maxUs, long calls,
            long errors, String firstError, Double allocBytesPerOp, Double cpuUsPerOp) {
    }

    /**
     * An aim the issue set, and whether this run met it: a throughput ratio's floor ({@code atLeast}), an
     * allocation ratio's ceiling ({@code atMost}, its {@code ratio} prefixed {@code alloc }), or a latency's bound
     * in µs ({@code atMost}, or {@code below} when strict; its {@code ratio} the figure's key,
     * {@code hit:redkit-near-tracking@1 p50_us}); the other bounds null.
     */
    public record AimResult(String ratio, Double value, Double atLeast, Double atMost, Double below, boolean met) {

        /** A ratio's aim: a floor or a ceiling. */
        public AimResult(String ratio, Double value, Double atLeast, Double atMost, boolean met) {
            this(ratio, value, atLeast, atMost, null, met);
        }

        /** The bound's sign and value, e.g. {@code ≥ 0.95}, {@code < 1.00}. */
        public String bound() {
            return atLeast != null ? String.format(Locale.ROOT, "≥ %.2f", atLeast) : atMost != null
                    ? String.format(Locale.ROOT, "≤ %.2f", atMost) : String.format(Locale.ROOT, "< %.2f", below);
        }
    }

    /** The redis-benchmark figures for the same command, or why there are none. */
    public record CeilingReport(boolean available, String tool, String reason, List<CeilingRow> rows) {
    }

    /** redis-benchmark at one concurrency ({@code -c callers -P 1}). */
    public record CeilingRow(String op, int callers, double opsPerS, double p50Us, double p99Us, long requests,
            String command) {
    }
}
