package io.redkit.cache;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * A cache-aside cache in front of a source of truth, one per cache name, built by {@link RedisCache#builder}.
 * Reads never fail because of Redis: a Redis error, a timeout, an open breaker or an undecodable value is a miss
 * served by the loader. A hit is one GET and a decode. Thread-safe.
 *
 * <p>Null keys are refused with {@link NullPointerException}; a loader's exception reaches the callers that waited
 * for that load.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public interface CacheAside<K, V> extends AutoCloseable {

    /** The cache name (tags its meters). */
    String name();

    /**
     * The value of {@code key}: from the near cache, from Redis, or from the loader on a miss (one load per key
     * at a time in this instance, and across instances while the fill lease holds). Empty when the source has none.
     */
    Optional<V> get(K key);

    /**
     * The values of {@code keys} that exist: one MGET (per slot on Cluster), one batch load for the misses, one
     * pipelined write-back. Keys absent from the result are "not found".
     */
    Map<K, V> getAll(Collection<? extends K> keys);

    /**
     * Deletes the entries (UNLINK, with their fill leases, so a load in flight cannot write its value back) and
     * tells the other instances' near caches. Throws a {@link io.redkit.RedkitException} with the outcome it got
     * when Redis could not be told (rejected, or timed out: it may have run); unless
     * {@code retryFailedInvalidations(false)}, the keys are then remembered (up to 10,000, past that the whole
     * cache), read from the source by this instance, and their UNLINK retried in the background until it lands,
     * so that a restart of Redis from its AOF cannot bring the old value back.
     *
     * @return how many of those keys (entries and fill leases) existed in Redis
     */
    long invalidate(Collection<? extends K> keys);

    /** {@link #invalidate(Collection)} of some keys. */
    @SuppressWarnings("unchecked")
    long invalidate(K... keys);

    /**
     * Registers the invalidation of {@code keys} to run after the current transaction commits (never before, so
     * that no reader can reload the old row in between). A failure then is logged, counted and retried as
     * {@link #invalidate(Collection)} retries it, not thrown: the commit has happened.
     */
    void invalidateAfterCommit(AfterCommit transaction, Collection<? extends K> keys);

    /**
     * Deletes every entry whose leading key parts are {@code prefixParts} (none: the whole cache) with SCAN +
     * UNLINK on every master, never KEYS. Parts are escaped: a {@code *} in them matches only a literal {@code *}.
     * Every near cache is flushed.
     *
     * @return how many keys were unlinked
     */
    long invalidateByPrefix(String... prefixParts);

    /** HEALTHY while Redis is used, DEGRADED while the breaker skips or probes it. */
    CacheHealth health();

    /** A snapshot of this instance's counters. */
    CacheStats stats();

    /** Stops the near-cache subscription and the refresh threads; the {@code Redkit} stays open. */
    @Override
    void close();
}
