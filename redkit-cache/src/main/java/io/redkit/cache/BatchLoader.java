package io.redkit.cache;

import java.util.Map;
import java.util.Set;

/**
 * Reads many values from the source of truth in one query ({@code WHERE id = ANY(?)}) for {@link CacheAside#getAll}.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
@FunctionalInterface
public interface BatchLoader<K, V> {

    /** The values found, by key; a key of {@code keys} missing from the result is "not found". */
    Map<K, V> loadAll(Set<K> keys) throws Exception;
}
