package io.redkit.lab.bench.limit;

import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;

/**
 * A contender making one rate-limit decision per call for the scenario's subject; on the hot key each call is
 * also counted in its {@link Admissions}. The timing adds two clock reads and a write to the caller's own slot.
 */
abstract class LimitContender implements Contender {

    final Scenario scenario;
    private final Admissions admissions;

    LimitContender(Scenario scenario, Admissions.Rule rule) {
        this.scenario = scenario;
        this.admissions = scenario.counted() ? new Admissions(rule) : null;
    }

    /** The admissions counted on the hot key, or null on the spread scenario. */
    Admissions admissions() {
        return admissions;
    }

    /** The decision for subject number {@code subject}: allowed or not; an exception when none was made. */
    abstract Verdict decide(int subject) throws Exception;

    /** A decision, and the server's microsecond where the contender learns it (-1 otherwise). */
    record Verdict(boolean allowed, long serverMicros) {
        static final Verdict ALLOWED = new Verdict(true, -1);
        static final Verdict REFUSED = new Verdict(false, -1);

        static Verdict of(boolean allowed) {
            return allowed ? ALLOWED : REFUSED;
        }
    }

    @Override
    public final void call(Caller caller) throws Exception {
        int subject = scenario.next(caller);
        if (admissions == null) {
            decide(subject);
            return;
        }
        long start = System.nanoTime();
        Verdict v = decide(subject);
        admissions.record(caller.id(), start, System.nanoTime(), v.allowed(), v.serverMicros());
    }
}
