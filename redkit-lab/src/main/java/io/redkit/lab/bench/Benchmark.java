package io.redkit.lab.bench;

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

    /**
     * One extra measurement: {@code json} under the report field {@code field} (snake_case, e.g. {@code miss_storm}),
     * and the same as a table with a title for the Markdown and the plain-text output.
     */
    record Extra(String field, String title, List<String> header, List<List<String>> rows, Object json) {

        /** Copies the lists. */
        public Extra {
            header = List.copyOf(header);
            rows = rows.stream().map(List::copyOf).toList();
        }
    }

    /** A floor for {@code subject/against@callers}, e.g. redkit ≥ 0.9 × lettuce-sync at 64 callers. */
    record Aim(String subject, String against, int callers, double atLeast) {
    }
}
