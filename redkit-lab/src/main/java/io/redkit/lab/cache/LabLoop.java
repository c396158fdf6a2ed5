package io.redkit.lab.cache;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;

/**
 * A lab's loop body run by the bench's {@link io.redkit.lab.bench.RoundRunner}: what it needs is connected before,
 * and closed after, by the lab itself.
 *
 * @param name what the loop does, for error messages
 * @param body one call, timed by the runner; an exception counts as an error of the round
 */
record LabLoop(String name, Body body) implements Contender {

    /** One call of the loop. */
    @FunctionalInterface
    interface Body {
        void call(Caller caller) throws Exception;
    }

    @Override
    public void setup(BenchEnv env) {
    }

    @Override
    public void call(Caller caller) throws Exception {
        body.call(caller);
    }

    @Override
    public void close() {
    }
}
