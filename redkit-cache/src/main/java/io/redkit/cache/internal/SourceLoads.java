package io.redkit.cache.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

import io.micrometer.common.KeyValue;
import io.redkit.ObservedOperation;
import io.redkit.RedkitClock;
import io.redkit.cache.BatchLoader;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.CacheLoadException;
import io.redkit.cache.CacheLoader;

/**
 * The calls of the user's loaders: one key with the single-key loader (or the batch loader with one key), many
 * keys with the batch loader (or the single-key loader once per key), each counted and timed. A loader that breaks
 * its contract (a batch loader returning {@code null}) gets the same {@link CacheLoadException} from {@code get}
 * and {@code getAll}.
 */
final class SourceLoads<K, V> {

    /** A load's result and how long it took. */
    record Loaded<V>(Optional<V> value, long nanos) {
    }

    private static final KeyValue FOUND = ObservedOperation.outcome("found");
    private static final KeyValue ABSENT = ObservedOperation.outcome("absent");
    private static final KeyValue ONE = KeyValue.of("batch", "false");
    private static final KeyValue BATCH = KeyValue.of("batch", "true");

    private final ObservedOperation observed;
    private final String cache;
    private final CacheLoader<K, V> loader;
    private final BatchLoader<K, V> batchLoader;
    private final RedkitClock clock;
    private final CacheMetrics metrics;

    SourceLoads(CacheConfig<K, V> config, RedkitClock clock, CacheMetrics metrics, ObservedOperation observed) {
        this.observed = observed;
        this.cache = config.name();
        this.loader = config.loader();
        this.batchLoader = config.batchLoader();
        this.clock = clock;
        this.metrics = metrics;
    }

    /** One call of the loader (or of the batch loader with one key), observed as {@code redkit.cache.load}. */
    Loaded<V> load(K key) {
        if (!observed.active()) {
            return loadOne(key);
        }
        return observed.observe(o -> {
            o.lowCardinalityKeyValue(ONE);
            return loadOne(key);
        }, loaded -> loaded.value().isPresent() ? FOUND : ABSENT);
    }

    private Loaded<V> loadOne(K key) {
        long start = clock.nanoTime();
        Optional<V> value = timed(() -> {
            if (loader != null) {
                Optional<V> loaded = loader.load(key);
                return loaded == null ? Optional.empty() : loaded;
            }
            return Optional.ofNullable(batch(Set.of(key)).get(key));
        });
        return new Loaded<>(value, clock.nanoTime() - start);
    }

    /** One call of the batch loader (or the loader once per key when there is none), observed as one load. */
    Map<K, V> loadAll(Set<K> keys) {
        if (!observed.active()) {
            return loadMany(keys);
        }
        return observed.observe(o -> {
            o.lowCardinalityKeyValue(BATCH).highCardinalityKeyValue("keys", Integer.toString(keys.size()));
            return loadMany(keys);
        }, found -> found.isEmpty() ? ABSENT : FOUND);
    }

    private Map<K, V> loadMany(Set<K> keys) {
        return timed(() -> {
            if (batchLoader != null) {
                return batch(keys);
            }
            Map<K, V> found = new HashMap<>();
            for (K key : keys) {
                Optional<V> value = loader.load(key);
                if (value != null && value.isPresent()) {
                    found.put(key, value.get());
                }
            }
            return found;
        });
    }

    private Map<K, V> batch(Set<K> keys) throws Exception {
        Map<K, V> found = batchLoader.loadAll(keys);
        if (found == null) {
            throw new CacheLoadException(cache, new NullPointerException(
                    "the batch loader returned null; return an empty map when none of the keys exists"));
        }
        return found;
    }

    /** Runs a load, counts and times it; a checked failure becomes {@link CacheLoadException}. */
    private <T> T timed(Callable<T> load) {
        long start = clock.nanoTime();
        try {
            return load.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new CacheLoadException(cache, e);
        } finally {
            metrics.load(clock.nanoTime() - start);
        }
    }
}
