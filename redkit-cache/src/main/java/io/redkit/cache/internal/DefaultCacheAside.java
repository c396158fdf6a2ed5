package io.redkit.cache.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedkitException;
import io.redkit.Redkit;
import io.redkit.cache.AfterCommit;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.CacheHealth;
import io.redkit.cache.CacheLoadException;
import io.redkit.cache.CacheStats;

/**
 * The cache-aside read path: near cache, one GET, decode; on a miss one load per key in this instance
 * (single-flight), coordinated across instances by {@link Filler}. Invalidation is in {@link Invalidator},
 * batches in {@link BatchReader}.
 */
public final class DefaultCacheAside<K, V> implements CacheAside<K, V> {

    private static final Logger log = LoggerFactory.getLogger(DefaultCacheAside.class);

    private final CacheConfig<K, V> config;
    private final CacheMetrics metrics;
    private final GuardedRedis redis;
    private final EntryCodec<V> entries;
    private final Filler<K, V> filler;
    private final NearCache<V> near;
    private final Map<String, CompletableFuture<Optional<V>>> flights = new ConcurrentHashMap<>();
    private final Set<String> refreshing = ConcurrentHashMap.newKeySet();
    private final Executor refreshExecutor;
    private final ExecutorService ownExecutor;
    private final Invalidator invalidator;
    private final BatchReader<K, V> batches;

    /** Builds the cache; with a near cache, subscribes to its invalidation channel. */
    public DefaultCacheAside(Redkit redkit, CacheConfig<K, V> config) {
        this.config = config;
        this.metrics = new CacheMetrics(redkit.meters(), redkit.config().name(), config.name());
        this.redis = new GuardedRedis(config.name(), redkit.commands(), config.breakerOpenFor(),
                config.breakerWindow(), metrics);
        this.entries = new EntryCodec<>(config, metrics);
        this.filler = new Filler<>(config, redis, entries, metrics);
        this.near = config.nearCacheSize() > 0
                ? new NearCache<>(redkit, "redkit.cache.invalidations:" + config.keySchema().namespace(),
                        config.nearCacheSize(), config.nearCacheTtl(), config.nearCacheTicker())
                : null;
        if (config.refreshExecutor() != null) {
            this.ownExecutor = null;
            this.refreshExecutor = config.refreshExecutor();
        } else {
            this.ownExecutor = refreshPool(config.name());
            this.refreshExecutor = ownExecutor;
        }
        this.invalidator = new Invalidator(redkit, config.keySchema(), filler::lease, redis);
        this.batches = new BatchReader<>(this, redis, entries, filler, metrics);
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public Optional<V> get(K key) {
        String entryKey = entryKey(Objects.requireNonNull(key, "key"));
        long epoch = near != null ? near.epoch() : 0;
        if (near != null) {
            Optional<V> cached = near.get(entryKey);
            if (cached != null) {
                metrics.nearHit();
                return cached;
            }
        }
        byte[] raw;
        boolean usable = true;
        try {
            raw = redis.call(ops -> ops.get(entryKey)).orElse(null);
        } catch (GuardedRedis.Skipped e) {
            raw = null;
            usable = false;
        }
        if (raw != null) {
            Envelope.Decoded d = entries.open(raw);
            Optional<V> value = d.usable() ? entries.value(d) : null;
            if (value != null) {
                metrics.hit();
                if (entries.refreshEarly(d)) {
                    refreshLater(key, entryKey);
                }
                nearPut(entryKey, value, epoch);
                return value;
            }
        }
        metrics.miss();
        return singleFlight(key, entryKey, usable, raw, epoch);
    }

    private Optional<V> singleFlight(K key, String entryKey, boolean usable, byte[] rejected, long epoch) {
        CompletableFuture<Optional<V>> mine = new CompletableFuture<>();
        CompletableFuture<Optional<V>> running = flights.putIfAbsent(entryKey, mine);
        if (running != null) {
            return join(running);
        }
        try {
            Filler.Fill<V> fill = filler.fill(key, entryKey, usable, rejected);
            mine.complete(fill.value());
            if (fill.inRedis()) {
                nearPut(entryKey, fill.value(), epoch);
            }
            return fill.value();
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            flights.remove(entryKey, mine);
        }
    }

    @Override
    public Map<K, V> getAll(Collection<? extends K> keys) {
        return batches.getAll(keys);
    }

    @Override
    public long invalidate(Collection<? extends K> keys) {
        List<String> entryKeys = entryKeys(keys);
        if (entryKeys.isEmpty()) {
            return 0;
        }
        long unlinked = invalidator.unlink(entryKeys);
        // After the UNLINK, so that a read racing with it cannot put the old entry back into the near cache.
        entryKeys.forEach(flights::remove);
        if (near != null) {
            near.invalidate(entryKeys);
        }
        return unlinked;
    }

    @SafeVarargs
    @Override
    public final long invalidate(K... keys) {
        Objects.requireNonNull(keys, "keys");
        return invalidate(Arrays.asList(keys));
    }

    @Override
    public void invalidateAfterCommit(AfterCommit transaction, Collection<? extends K> keys) {
        Objects.requireNonNull(transaction, "transaction");
        List<K> copy = List.copyOf(Objects.requireNonNull(keys, "keys"));
        transaction.register(() -> {
            try {
                invalidate(copy);
            } catch (RedkitException e) {
                // The transaction is committed; the entry lives until its TTL. Say so loudly, once per failure.
                log.warn("cache '{}': invalidation after commit failed, entries may be stale until their TTL: {}",
                        config.name(), e.toString());
            }
        });
    }

    @Override
    public long invalidateByPrefix(String... prefixParts) {
        long unlinked = invalidator.unlinkByPrefix(prefixParts);
        flights.clear();
        if (near != null) {
            near.invalidateAll();
        }
        return unlinked;
    }

    @Override
    public CacheHealth health() {
        return redis.health();
    }

    @Override
    public CacheStats stats() {
        return metrics.snapshot();
    }

    /** How many times the near cache was flushed (0 without one). */
    public long nearCacheFlushes() {
        return near == null ? 0 : near.flushes();
    }

    @Override
    public void close() {
        if (near != null) {
            near.close();
        }
        if (ownExecutor != null) {
            ownExecutor.shutdownNow();
        }
    }

    String entryKey(K key) {
        List<String> parts = config.keyParts().apply(key);
        if (parts == null || parts.isEmpty()) {
            throw new IllegalArgumentException("keyParts gave no parts for key " + key);
        }
        return config.keySchema().key(parts.toArray(new String[0]));
    }

    private List<String> entryKeys(Collection<? extends K> keys) {
        Objects.requireNonNull(keys, "keys");
        List<String> result = new ArrayList<>(keys.size());
        for (K key : keys) {
            result.add(entryKey(Objects.requireNonNull(key, "keys must not contain null")));
        }
        return result;
    }

    Map<String, CompletableFuture<Optional<V>>> flights() {
        return flights;
    }

    NearCache<V> near() {
        return near;
    }

    void nearPut(String entryKey, Optional<V> value, long epoch) {
        if (near != null) {
            near.put(entryKey, value, epoch);
        }
    }

    void refreshLater(K key, String entryKey) {
        if (!refreshing.add(entryKey)) {
            return;
        }
        try {
            refreshExecutor.execute(() -> {
                try {
                    filler.refresh(key, entryKey);
                } catch (RuntimeException e) {
                    log.debug("cache '{}': early refresh of {} failed: {}", config.name(), entryKey, e.toString());
                } finally {
                    refreshing.remove(entryKey);
                }
            });
        } catch (RejectedExecutionException e) {
            refreshing.remove(entryKey);
        }
    }

    static <V> Optional<V> join(CompletableFuture<Optional<V>> flight) {
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
            throw new CacheLoadException("?", cause);
        }
    }

    private static ExecutorService refreshPool(String cache) {
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(256),
                r -> {
                    Thread t = new Thread(r, "redkit-cache-refresh-" + cache + "-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
