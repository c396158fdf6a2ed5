package io.redkit.cache;

import java.util.Optional;

/**
 * Reads one value from the source of truth (PostgreSQL, a service) on a cache miss.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
@FunctionalInterface
public interface CacheLoader<K, V> {

    /**
     * The value for {@code key}, or empty when the source has none (cached as a short-lived "not found" marker).
     * A thrown exception reaches every caller waiting on this load and nothing is cached.
     */
    Optional<V> load(K key) throws Exception;
}
