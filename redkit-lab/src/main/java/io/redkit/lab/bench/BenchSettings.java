package io.redkit.lab.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import io.redkit.lab.DurationOption;

/**
 * How a run is paced: caller counts, measured rounds per contender, and the length of a round and of the warm-up
 * each contender gets at each caller count before the rounds begin.
 *
 * @param callers caller thread counts, each measured on its own (default 1, 16, 64)
 * @param rounds measured rounds per contender and caller count (default 5)
 * @param round length of one round (default 1 s; {@code short} = 300 ms)
 * @param warmup unmeasured run per contender and caller count before the rounds (default = one round; short 200 ms)
 * @param preset the name of the duration preset, or the duration as given
 */
public record BenchSettings(List<Integer> callers, int rounds, Duration round, Duration warmup, String preset) {

    /** Default caller counts. */
    public static final List<Integer> DEFAULT_CALLERS = List.of(1, 16, 64);
    /** Default number of measured rounds. */
    public static final int DEFAULT_ROUNDS = 5;
    /** Default round length. */
    public static final Duration DEFAULT_ROUND = Duration.ofSeconds(1);
    /** Round length of the {@code short} preset, for smoke tests: figures are not worth quoting. */
    public static final Duration SHORT_ROUND = Duration.ofMillis(300);
    /** Warm-up of the {@code short} preset. */
    public static final Duration SHORT_WARMUP = Duration.ofMillis(200);

    /** Validates eagerly and names the bad value. */
    public BenchSettings {
        callers = List.copyOf(callers);
        if (callers.isEmpty() || callers.stream().anyMatch(c -> c < 1 || c > 1024)) {
            throw new IllegalArgumentException("--callers must be 1..1024 each, was " + callers);
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1, was " + rounds);
        }
        if (round.isNegative() || round.isZero()) {
            throw new IllegalArgumentException("--duration must be positive, was " + round);
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must not be negative, was " + warmup);
        }
    }

    /** Builds settings from the command line: {@code duration} is {@code short}, {@code default} or e.g. 2s. */
    public static BenchSettings of(List<Integer> callers, int rounds, String duration, String warmup) {
        String d = duration == null ? "default" : duration.toLowerCase(Locale.ROOT);
        Duration round;
        Duration warm;
        switch (d) {
            case "short" -> {
                round = SHORT_ROUND;
                warm = SHORT_WARMUP;
            }
            case "default" -> {
                round = DEFAULT_ROUND;
                warm = DEFAULT_ROUND;
            }
            default -> {
                round = parse("--duration", d);
                warm = round;
            }
        }
        if (warmup != null) {
            warm = parse("--warmup", warmup.toLowerCase(Locale.ROOT));
        }
        return new BenchSettings(callers == null || callers.isEmpty() ? DEFAULT_CALLERS : callers, rounds, round,
                warm, d);
    }

    private static Duration parse(String option, String text) {
        return DurationOption.parse(text).orElseThrow(() -> new IllegalArgumentException(option
                + " must be short, default or a duration like 500ms, 2s, 1m; was '" + text + "'"));
    }
}
