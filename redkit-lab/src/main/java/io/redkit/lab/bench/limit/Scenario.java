package io.redkit.lab.bench.limit;

import io.redkit.lab.bench.Caller;

/**
 * One op of {@code bench limit}: how many subjects the callers spread over, and the limit each subject gets,
 * the same for every contender (permits per second, with a burst of one second's worth where there is one).
 *
 * @param op the op's name in the rows
 * @param subjects how many subjects: 1 (every call on one hot key) or many (a random one per call)
 * @param perSecond the limit of each subject
 */
record Scenario(String op, int subjects, long perSecond) {

    /** One subject at 1,000 per second: under every caller count most calls are refused, over-admission shows. */
    static final Scenario HOT_KEY = new Scenario("hot-key", 1, 1_000);
    /** 10,000 subjects at 10 per second each, a random one per call: no key is hot. */
    static final Scenario SPREAD = new Scenario("10k-keys", 10_000, 10);

    /** The number of the subject of a caller's next call, 0 to {@code subjects - 1}. */
    int next(Caller caller) {
        return subjects == 1 ? 0 : caller.nextInt(subjects);
    }

    /** The name of subject {@code i}: {@code hot} on the hot key, {@code k<i>} otherwise. */
    String name(int i) {
        return subjects == 1 ? "hot" : "k" + i;
    }

    /** Whether over-admission is counted: on the hot key, where callers race for the same permits. */
    boolean counted() {
        return subjects == 1;
    }
}
