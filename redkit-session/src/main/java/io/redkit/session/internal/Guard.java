package io.redkit.session.internal;

import java.time.Duration;
import java.util.function.Supplier;

import io.redkit.Outcome;
import io.redkit.RedisBreaker;
import io.redkit.RedisCommandException;
import io.redkit.RedisOps;
import io.redkit.RedisUnavailableException;
import io.redkit.Redkit;
import io.redkit.RedkitException;
import io.redkit.session.SessionHealth;
import io.redkit.session.SessionStoreUnavailableException;

/**
 * Where sessions fail closed, once: a Redis failure of any store operation becomes
 * {@link SessionStoreUnavailableException} and is counted. Behind a {@link RedisBreaker}: once a call got no
 * answer, the next ones fail at once, unsent ({@link Outcome#NOT_EXECUTED}), instead of each waiting out the
 * timeout with a request thread parked on it, until the breaker's background probe gets an answer (no user call
 * pays the probe). An error reply is an answer: it fails the call, not the store.
 *
 * <p>Any call that gets no answer opens the breaker ({@link RedisBreaker#openOnAnyFailure}), the first call of a
 * fresh store too, so an outage costs one timeout, not one per request. Its probe runs every
 * {@link #PROBE_INTERVAL} (a probe waits out its own timeout while Redis is stalled) and one answer closes it, so
 * the store is READY again within milliseconds of Redis answering. One breaker per store: on Cluster a master
 * that does not answer fails the sessions of every master, as a session store that is half there is not one a
 * service can report ready.
 */
final class Guard {

    /** The pause between two probes while open. */
    static final Duration PROBE_INTERVAL = Duration.ofMillis(10);

    private final String store;
    private final RedisBreaker breaker;
    private final Readiness readiness;
    private final Runnable count;

    /** The guard of the store {@code store} ({@code kind} names it in the breaker's log lines). */
    Guard(Redkit redkit, String kind, String store, Runnable count) {
        this.store = store;
        this.breaker = RedisBreaker.openOnAnyFailure(redkit, kind + " " + store, PROBE_INTERVAL);
        this.readiness = new Readiness(breaker, redkit.clock());
        this.count = count;
    }

    /** READY or NOT_READY, after a PING on {@code ops} when no call has looked for a second. */
    SessionHealth health(RedisOps ops) {
        return readiness.health(this, ops);
    }

    /** Whether calls go to Redis now, without looking. */
    boolean isReady() {
        return readiness.isReady();
    }

    /**
     * Runs {@code work} against Redis; its failure is the store's unavailability. {@code key} is the key it is
     * about (or null): after a failure the breaker's probe reads it, so on Cluster it asks the node that failed.
     */
    <R> R run(String operation, String key, Supplier<R> work) {
        if (!breaker.tryAcquire()) {
            count.run();
            throw new SessionStoreUnavailableException(store, operation, new RedisUnavailableException(
                    "not sent: Redis did not answer an earlier call, and has not answered a probe since",
                    Outcome.NOT_EXECUTED, null));
        }
        long start = System.nanoTime();
        R result;
        try {
            result = work.get();
        } catch (RedisCommandException e) {
            breaker.succeeded(System.nanoTime() - start); // Redis answered
            readiness.answered();
            throw unavailable(operation, e);
        } catch (RedkitException e) {
            breaker.failed(System.nanoTime() - start, e, key);
            readiness.unanswered(e);
            throw unavailable(operation, e);
        } catch (RuntimeException | Error e) {
            breaker.released();
            throw e;
        }
        breaker.succeeded(System.nanoTime() - start);
        readiness.answered();
        return result;
    }

    private SessionStoreUnavailableException unavailable(String operation, RedkitException e) {
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
