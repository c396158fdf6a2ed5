package io.redkit.cache.internal;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.redkit.cache.CacheLoadException;

/**
 * One load per key at a time in this instance: the first caller of a key runs the load, the others wait for its
 * result. The one home of the in-flight map, for {@code get} and {@code getAll} alike.
 *
 * <p>A load that asks for its own key (the loader calls {@code get} on the key it is loading, directly or through
 * other keys on the same thread) would wait for itself forever; it gets an {@link IllegalStateException} instead,
 * as Caffeine does for a recursive computation.
 */
final class SingleFlight<V> {

    /** A load in flight and the thread running it. */
    private record Flight<V>(CompletableFuture<Optional<V>> result, Thread owner) {
    }

    /** The keys a batch runs itself, and the loads of other callers it joined. */
    record Claim<V>(Map<String, CompletableFuture<Optional<V>>> owned,
            Map<String, CompletableFuture<Optional<V>>> joined) {
    }

    private final String cache;
    private final Map<String, Flight<V>> flights = new ConcurrentHashMap<>();

    SingleFlight(String cache) {
        this.cache = cache;
    }

    /** Runs {@code load} for {@code key} unless a load of it is in flight, whose result it then waits for. */
    Optional<V> run(String key, Supplier<Optional<V>> load) {
        Flight<V> mine = new Flight<>(new CompletableFuture<>(), Thread.currentThread());
        Flight<V> running = flights.putIfAbsent(key, mine);
        if (running != null) {
            return join(key, running);
        }
        try {
            Optional<V> value = load.get();
            mine.result().complete(value);
            return value;
        } catch (RuntimeException | Error e) {
            mine.result().completeExceptionally(e);
            throw e;
        } finally {
            flights.remove(key, mine);
        }
    }

    /**
     * Takes the keys nobody is loading (the caller must {@link #finish} every one of them) and joins the loads in
     * flight for the others.
     */
    Claim<V> claim(Collection<String> keys) {
        Map<String, CompletableFuture<Optional<V>>> owned = new LinkedHashMap<>();
        Map<String, CompletableFuture<Optional<V>>> joined = new LinkedHashMap<>();
        Thread self = Thread.currentThread();
        for (String key : keys) {
            Flight<V> mine = new Flight<>(new CompletableFuture<>(), self);
            Flight<V> running = flights.putIfAbsent(key, mine);
            if (running == null) {
                owned.put(key, mine.result());
            } else {
                if (running.owner() == self) {
                    owned.keySet().forEach(k -> finish(k, owned.get(k), null, recursive(k)));
                    throw recursive(key);
                }
                joined.put(key, running.result());
            }
        }
        return new Claim<>(owned, joined);
    }

    /** Completes an owned key's load (with its value, or with {@code failure}) and ends the flight. */
    void finish(String key, CompletableFuture<Optional<V>> owned, Optional<V> value, Throwable failure) {
        if (failure != null) {
            owned.completeExceptionally(failure);
        } else {
            owned.complete(value);
        }
        flights.computeIfPresent(key, (k, f) -> f.result() == owned ? null : f);
    }

    /** Forgets the flights of these keys: a load in flight completes for its waiters but no longer lends its result. */
    void forget(Collection<String> keys) {
        keys.forEach(flights::remove);
    }

    /** Forgets every flight (bulk invalidation). */
    void forgetAll() {
        flights.clear();
    }

    /** The result of a load someone else runs. */
    Optional<V> join(String key, CompletableFuture<Optional<V>> flight) {
        try {
            return flight.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new CacheLoadException(cache, cause);
        }
    }

    private Optional<V> join(String key, Flight<V> running) {
        if (running.owner() == Thread.currentThread()) {
            throw recursive(key);
        }
        return join(key, running.result());
    }

    private IllegalStateException recursive(String key) {
        return new IllegalStateException("cache '" + cache + "': recursive load of " + key + ": the loader of this"
                + " key asked the cache for the same key on the same thread, which would wait for itself forever");
    }
}
