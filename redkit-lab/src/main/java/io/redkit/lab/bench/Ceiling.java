package io.redkit.lab.bench;

import java.util.List;

/**
 * What to hand {@code redis-benchmark} for the same command: either {@code -t get} style tests or a raw command
 * ({@code EVALSHA sha 1 key:__rand_int__ …}), with {@code -r}/{@code -d} as needed. The harness adds host, port,
 * {@code -c callers}, {@code -n}, {@code -P 1} and {@code --csv} itself.
 */
public record Ceiling(List<String> args) {

    /** Copies {@code args}. */
    public Ceiling {
        args = List.copyOf(args);
    }

    /** The arguments as one line for the report. */
    public String describe() {
        return String.join(" ", args);
    }
}
