package io.redkit.lab.bench;

import java.util.SplittableRandom;

/** One caller thread of a round: its number and its own random source (no contention between callers). */
public final class Caller {

    private final int id;
    private final SplittableRandom random;

    Caller(int id, long seed) {
        this.id = id;
        this.random = new SplittableRandom(seed);
    }

    /** The caller's number, 0 to callers − 1. */
    public int id() {
        return id;
    }

    /** A uniform integer in [0, bound). */
    public int nextInt(int bound) {
        return random.nextInt(bound);
    }
}
