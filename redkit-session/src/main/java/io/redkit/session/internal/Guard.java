package io.redkit.session.internal;

import java.util.function.Supplier;

import io.redkit.RedkitException;
import io.redkit.session.SessionStoreUnavailableException;

/**
 * Where sessions fail closed, once: a Redis failure of any store operation becomes
 * {@link SessionStoreUnavailableException}, is counted, and turns the store NOT_READY; an answer turns it READY.
 */
final class Guard {

    private final String store;
    private final Readiness readiness;
    private final Runnable count;

    Guard(String store, Readiness readiness, Runnable count) {
        this.store = store;
        this.readiness = readiness;
        this.count = count;
    }

    /** Runs {@code work} against Redis; its failure is the store's unavailability. */
    <R> R run(String operation, Supplier<R> work) {
        R result;
        try {
            result = work.get();
        } catch (RedkitException e) {
            throw unavailable(operation, e);
        }
        readiness.up();
        return result;
    }

    /** Counts and translates a Redis failure of {@code operation}. */
    SessionStoreUnavailableException unavailable(String operation, RedkitException e) {
        readiness.down(e);
        count.run();
        return new SessionStoreUnavailableException(store, operation, e);
    }

    /** Runs a clean-up after a failure; its own failure is already behind the one being reported. */
    static void bestEffort(Runnable cleanup, RuntimeException failure) {
        try {
            cleanup.run();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
