package io.redkit.lab.bench;

import java.util.List;

/**
 * What to hand {@code redis-benchmark} for the same command mix: one step for a one-command op ({@code -t get}
 * style tests, or a raw command such as {@code EVALSHA sha 1 key:__rand_int__ …}, with {@code -r}/{@code -d} as
 * needed), or several steps when one op is several round trips (a lock cycle: acquire, then release). Each step
 * is its own run; the op's ceiling is then their harmonic sum, the rate at which the server could serve all the
 * steps of an op one after the other (1 / Σ 1/rateᵢ), with the steps' p50s and p99s added. The harness adds
 * host, port, {@code -c callers}, {@code -n}, {@code -P 1} and {@code --csv} itself.
 */
public record Ceiling(List<Step> steps) {

    /** Copies {@code steps}; at least one. */
    public Ceiling {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("a ceiling needs at least one redis-benchmark step");
        }
        steps = List.copyOf(steps);
    }

    /** A one-command op. */
    public static Ceiling of(List<String> args) {
        return new Ceiling(List.of(fixed(args)));
    }

    /** An op of several round trips, one step each, in order. */
    public static Ceiling cycle(Step... steps) {
        return new Ceiling(List.of(steps));
    }

    /** A step whose arguments do not depend on the run's size. */
    public static Step fixed(List<String> args) {
        List<String> copy = List.copyOf(args);
        return requests -> copy;
    }

    /**
     * One redis-benchmark run. A step may need keys in place first (a release needs locks to release) and may
     * clear them after, so that the contenders' next rounds meet the server as they left it.
     */
    public interface Step {

        /** The arguments for a run of {@code requests} requests. */
        List<String> args(long requests);

        /** Called before the run. */
        default void before(BenchEnv env, long requests) throws Exception {
        }

        /** Called after the run, also when it failed. */
        default void after(BenchEnv env, long requests) throws Exception {
        }
    }
}
