package io.redkit.cache.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.redkit.Idempotency;
import io.redkit.KeySchema;
import io.redkit.RedisScript;
import io.redkit.ScriptResult;
import io.redkit.cache.BatchLoader;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.CacheLoadException;
import io.redkit.cache.CacheLoader;

/**
 * A miss of one key, across instances: take the fill lease (or find the entry another instance just wrote), load,
 * and write back only while the lease holds; without the lease, wait briefly for the holder's entry and re-read,
 * and past the wait bound load without writing.
 */
final class Filler<K, V> {

    static final RedisScript<List<Object>> ACQUIRE =
            RedisScript.fromResource(Filler.class, "/io/redkit/cache/acquire.lua", ScriptResult.MULTI,
                    Idempotency.NON_IDEMPOTENT);
    // Not retried: a second run after a timeout would find its own lease gone and report a refusal.
    static final RedisScript<Long> FILL =
            RedisScript.fromResource(Filler.class, "/io/redkit/cache/fill.lua", ScriptResult.INTEGER,
                    Idempotency.NON_IDEMPOTENT);
    static final RedisScript<Long> RELEASE =
            RedisScript.fromResource(Filler.class, "/io/redkit/cache/release.lua", ScriptResult.INTEGER,
                    Idempotency.IDEMPOTENT);

    private static final byte[] NOTHING = new byte[0];
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** The outcome of a fill: the value, and whether Redis now holds it (only then may a near cache keep it). */
    record Fill<V>(Optional<V> value, boolean inRedis) {
    }

    /** A load's result and how long it took. */
    record Loaded<V>(Optional<V> value, long nanos) {
    }

    private final String cache;
    private final KeySchema schema;
    private final CacheLoader<K, V> loader;
    private final BatchLoader<K, V> batchLoader;
    private final byte[] leaseMillis;
    private final Duration leaseTtl;
    private final long waitNanos;
    private final GuardedRedis redis;
    private final EntryCodec<V> entries;
    private final CacheMetrics metrics;

    Filler(CacheConfig<K, V> config, GuardedRedis redis, EntryCodec<V> entries, CacheMetrics metrics) {
        this.cache = config.name();
        this.schema = config.keySchema();
        this.loader = config.loader();
        this.batchLoader = config.batchLoader();
        this.leaseTtl = config.fillLease();
        this.leaseMillis = ascii(leaseTtl.toMillis());
        this.waitNanos = config.fillWait().toNanos();
        this.redis = redis;
        this.entries = entries;
        this.metrics = metrics;
    }

    Duration leaseTtl() {
        return leaseTtl;
    }

    String lease(String entryKey) {
        return schema.child(entryKey, "fill");
    }

    /** Fills {@code entryKey} after a miss; {@code rejected} is the undecodable entry the read found, if any. */
    Fill<V> fill(K key, String entryKey, boolean redisUsable, byte[] rejected) {
        if (!redisUsable) {
            return new Fill<>(load(key).value(), false);
        }
        String lease = lease(entryKey);
        byte[] token = token();
        byte[] seen = rejected == null ? NOTHING : rejected;
        long deadline = System.nanoTime() + waitNanos;
        long pause = FIRST_PAUSE_NANOS;
        boolean waited = false;
        while (true) {
            byte[] expect = seen;
            List<Object> reply;
            try {
                reply = redis.call(ops -> ops.eval(ACQUIRE, List.of(entryKey, lease), token, leaseMillis, expect));
            } catch (GuardedRedis.Skipped e) {
                return new Fill<>(load(key).value(), false);
            }
            long status = (Long) reply.get(0);
            if (status == 1) {
                byte[] found = (byte[]) reply.get(1);
                Optional<V> value = entries.read(found);
                if (value != null) {
                    return new Fill<>(value, true);
                }
                seen = found;
                continue;
            }
            if (status == 2) {
                return loadAndFill(key, entryKey, lease, token);
            }
            if (!waited) {
                metrics.fillWait();
                waited = true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                // Past the bound the holder may be dead or slow: serve from the source, leave the fill to it.
                return new Fill<>(load(key).value(), false);
            }
            LockSupport.parkNanos(Math.min(pause, left));
            pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
        }
    }

    /** An XFetch refresh: only if no one else is filling the key; never waits. */
    boolean refresh(K key, String entryKey) {
        String lease = lease(entryKey);
        byte[] token = token();
        boolean acquired;
        try {
            acquired = redis.call(ops -> ops.setIfAbsent(lease, token, leaseTtl));
        } catch (GuardedRedis.Skipped e) {
            return false;
        }
        if (acquired) {
            metrics.earlyRefresh();
            loadAndFill(key, entryKey, lease, token);
        }
        return acquired;
    }

    /** Loads while holding the lease, then writes back if the lease still holds. */
    Fill<V> loadAndFill(K key, String entryKey, String lease, byte[] token) {
        Loaded<V> loaded;
        EntryCodec.Stored stored;
        try {
            loaded = load(key);
            stored = entries.encode(loaded.value(), loaded.nanos());
        } catch (RuntimeException e) {
            release(lease, token);
            throw e;
        }
        if (stored == null) {
            release(lease, token);
            return new Fill<>(loaded.value(), false);
        }
        long written;
        try {
            written = redis.call(ops -> ops.eval(FILL, List.of(entryKey, lease), token, stored.bytes(),
                    ascii(stored.ttlMillis())));
        } catch (GuardedRedis.Skipped e) {
            return new Fill<>(loaded.value(), false);
        }
        if (written == 0) {
            metrics.staleFillPrevented();
            return new Fill<>(loaded.value(), false);
        }
        return new Fill<>(loaded.value(), true);
    }

    void release(String lease, byte[] token) {
        try {
            redis.call(ops -> ops.eval(RELEASE, List.of(lease), token));
        } catch (GuardedRedis.Skipped e) {
            // The lease runs out by itself.
        }
    }

    /** One call of the loader (or of the batch loader with one key). */
    Loaded<V> load(K key) {
        long start = System.nanoTime();
        Optional<V> value = timed(() -> loader != null ? loader.load(key)
                : Optional.ofNullable(batchLoader.loadAll(Set.of(key)).get(key)));
        return new Loaded<>(value == null ? Optional.empty() : value, System.nanoTime() - start);
    }

    /** One call of the batch loader (or the loader once per key when there is none). */
    Map<K, V> loadAll(Set<K> keys) {
        return timed(() -> {
            if (batchLoader != null) {
                Map<K, V> found = batchLoader.loadAll(keys);
                return found == null ? Map.of() : found;
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

    /** Runs a load, counts and times it; a checked failure becomes {@link CacheLoadException}. */
    private <T> T timed(Callable<T> load) {
        long start = System.nanoTime();
        try {
            return load.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new CacheLoadException(cache, e);
        } finally {
            metrics.load(System.nanoTime() - start);
        }
    }

    /** A lease token: unique, not secret, so no SecureRandom on the miss path. */
    static byte[] token() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return (Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()))
                .getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] ascii(long number) {
        return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
    }
}
