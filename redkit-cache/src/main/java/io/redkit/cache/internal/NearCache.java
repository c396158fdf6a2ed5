package io.redkit.cache.internal;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.Optional;

/**
 * The in-process copy of hot entries in front of Redis, or none: a cache without one gets {@link #none()}, which
 * answers every read with a miss, so the read path never asks whether a near cache exists.
 *
 * @param <V> the value type
 */
interface NearCache<V> extends AutoCloseable {

    /** The near answer for {@code key}, or a miss when absent or when it cannot be trusted now. */
    Lookup<V> get(String key);

    /** A mark to pass to {@link #put}: taken before the Redis read or the load that produced the value. */
    long epoch();

    /** Keeps an answer unless an invalidation or flush happened since {@code epochBefore}. */
    void put(String key, Optional<V> answer, long epochBefore);

    /**
     * Offers a value this instance loaded and wrote to Redis, under the same rule as {@link #put}. A near cache the
     * server invalidates does not keep it: the fill's own write makes the server invalidate the key, after which
     * the key is no longer tracked; the next read from Redis is kept instead.
     */
    default void putLoaded(String key, Optional<V> answer, long epochBefore) {
        put(key, answer, epochBefore);
    }

    /** Drops the keys here and tells the other instances. */
    void invalidate(Collection<String> keys);

    /**
     * Tells the other instances that {@code keys} are stale, without dropping them here; sent now, on the
     * connection of {@code redkit.commands()}, behind whatever was sent on it before. Null when this near cache
     * tells no one itself (there is none, or the server tells them): then {@link #invalidate} does all.
     */
    default CompletableFuture<Long> announce(Collection<String> keys) {
        return null;
    }

    /** Drops the keys here only: the other instances were told by {@link #announce}. */
    default void forget(Collection<String> keys) {
        invalidate(keys);
    }

    /** Drops everything here and tells the other instances. */
    void invalidateAll();

    /** How many times it was flushed (reconnect, gap, prefix invalidation, a flush on the server). */
    long flushes();

    /** How many key invalidations reached it from elsewhere (the server, or other instances). */
    long invalidationsReceived();

    /** How many entries it holds (an estimate). */
    long size();

    @Override
    void close();

    /** No near cache: every read goes to Redis, nothing is kept. */
    @SuppressWarnings("unchecked")
    static <V> NearCache<V> none() {
        return (NearCache<V>) None.INSTANCE;
    }

    /** The near cache of a cache that has none. */
    final class None implements NearCache<Object> {
        private static final None INSTANCE = new None();

        @Override
        public Lookup<Object> get(String key) {
            return Lookup.miss();
        }

        @Override
        public long epoch() {
            return 0;
        }

        @Override
        public void put(String key, Optional<Object> answer, long epochBefore) {
        }

        @Override
        public void invalidate(Collection<String> keys) {
        }

        @Override
        public void invalidateAll() {
        }

        @Override
        public long flushes() {
            return 0;
        }

        @Override
        public long invalidationsReceived() {
            return 0;
        }

        @Override
        public long size() {
            return 0;
        }

        @Override
        public void close() {
        }
    }
}
