package io.redkit.lab.bench.session;

import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;

/**
 * A session contender: {@link #setup} creates {@link Visitor#SESSIONS} live sessions, and each {@link #call} is
 * what a request costs the library: find a random one of them by its id and touch it. A missing session or the
 * wrong data is an error of the round.
 */
abstract class SessionContender implements Contender {

    private final String name;

    SessionContender(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    /** Loads and touches session {@code i}; its data, or null when it was not found. */
    abstract Visitor loadAndTouch(int i) throws Exception;

    @Override
    public final void call(Caller caller) throws Exception {
        int i = caller.nextInt(Visitor.SESSIONS);
        Visitor v = loadAndTouch(i);
        if (v == null) {
            throw new IllegalStateException(name + ": session " + i + " not found");
        }
        if (!v.userId().equals(Visitor.user(i))) {
            throw new IllegalStateException(name + ": session " + i + " holds " + v.userId());
        }
    }
}
