package io.redkit.cache.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.Idempotency;
import io.redkit.KeySchema;
import io.redkit.RedisScript;
import io.redkit.RedkitClock;
import io.redkit.RedkitTimer;
import io.redkit.ScriptResult;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.ValueTooLargeException;

/**
 * A miss across instances: take the fill lease (or find the entry another instance just wrote), load, and write
 * back only while the lease holds; without the lease, wait briefly for the holder's entry and re-read, and past
 * the wait bound load without writing. The lease is kept alive while the loader runs ({@link LeaseKeeper}), so a
 * load slower than the lease still fills the cache; an invalidation UNLINKs the lease, so a load that began before
 * it never writes.
 */
final class Filler<K, V> {

    private static final Logger log = LoggerFactory.getLogger(Filler.class);

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
    /** The fill scripts, registered with {@code Redkit.scripts()} when a cache is built. */
    static final List<RedisScript<?>> SCRIPTS = List.of(ACQUIRE, FILL, RELEASE, LeaseKeeper.EXTEND);

    private static final byte[] NOTHING = new byte[0];
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long ACQUIRED = 2;
    private static final long FOUND = 1;

    /**
     * The outcome of a fill: the answer, and whether Redis now holds it (only then may a near cache keep it); or,
     * in a batch, the failure of this key alone ({@code failure} set, no answer).
     */
    record Fill<V>(Optional<V> value, boolean inRedis, RuntimeException failure) {

        Fill(Optional<V> value, boolean inRedis) {
            this(value, inRedis, null);
        }

        static <V> Fill<V> failed(RuntimeException failure) {
            return new Fill<>(null, false, failure);
        }
    }

    private final String cache;
    private final KeySchema schema;
    private final byte[] leaseMillis;
    private final Duration leaseTtl;
    private final long waitNanos;
    private final GuardedRedis redis;
    private final EntryCodec<V> entries;
    private final SourceLoads<K, V> source;
    private final LeaseKeeper keeper;
    private final RedkitClock clock;
    private final CacheMetrics metrics;

    Filler(CacheConfig<K, V> config, GuardedRedis redis, EntryCodec<V> entries, SourceLoads<K, V> source,
            RedkitTimer timer, RedkitClock clock, CacheMetrics metrics) {
        this.cache = config.name();
        this.schema = config.keySchema();
        this.leaseTtl = config.fillLease();
        this.leaseMillis = ascii(leaseTtl.toMillis());
        this.waitNanos = config.fillWait().toNanos();
        this.redis = redis;
        this.entries = entries;
        this.source = source;
        this.keeper = new LeaseKeeper(cache, redis, timer, leaseTtl, leaseMillis);
        this.clock = clock;
        this.metrics = metrics;
    }

    String lease(String entryKey) {
        return schema.child(entryKey, "fill");
    }

    /** Fills {@code entryKey} after a miss; {@code rejected} is the undecodable entry the read found, if any. */
    Fill<V> fill(K key, String entryKey, boolean redisUsable, byte[] rejected) {
        if (!redisUsable) {
            return new Fill<>(source.load(key).value(), false);
        }
        String lease = lease(entryKey);
        byte[] token = token();
        byte[] seen = rejected == null ? NOTHING : rejected;
        long deadline = clock.nanoTime() + waitNanos;
        long pause = FIRST_PAUSE_NANOS;
        boolean waited = false;
        while (true) {
            byte[] expect = seen;
            List<Object> reply;
            try {
                reply = redis.call(entryKey, ops -> ops.eval(ACQUIRE, List.of(entryKey, lease), token, leaseMillis,
                        expect));
            } catch (GuardedRedis.Skipped e) {
                return new Fill<>(source.load(key).value(), false);
            }
            long status = (Long) reply.get(0);
            if (status == FOUND) {
                byte[] found = (byte[]) reply.get(1);
                Lookup<V> lookup = entries.read(found);
                if (lookup.answers()) {
                    return new Fill<>(lookup.answer(), true);
                }
                seen = found;
                continue;
            }
            if (status == ACQUIRED) {
                return loadAndFill(key, entryKey, lease, token, expect);
            }
            if (!waited) {
                metrics.fillWait();
                waited = true;
            }
            long left = deadline - clock.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                // Past the bound the holder may be dead or slow: serve from the source, leave the fill to it.
                return new Fill<>(source.load(key).value(), false);
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
            acquired = redis.call(entryKey, ops -> ops.setIfAbsent(lease, token, leaseTtl));
        } catch (GuardedRedis.Skipped e) {
            return false;
        }
        if (acquired) {
            metrics.earlyRefresh();
            loadAndFill(key, entryKey, lease, token, null);
        }
        return acquired;
    }

    /**
     * Loads while holding the lease (kept alive meanwhile), then writes back if the lease still holds and the entry
     * is still {@code replaces} (what the miss found: nothing, or a rejected entry); {@code null} replaces anything.
     */
    private Fill<V> loadAndFill(K key, String entryKey, String lease, byte[] token, byte[] replaces) {
        SourceLoads.Loaded<V> loaded;
        EntryCodec.Stored stored;
        try (LeaseKeeper.Kept kept = keeper.keep(Map.of(lease, token))) {
            loaded = source.load(key);
            stored = entries.encode(loaded.value(), loaded.nanos());
        } catch (RuntimeException e) {
            release(entryKey, lease, token);
            throw e;
        }
        if (stored == null) {
            release(entryKey, lease, token);
            return new Fill<>(loaded.value(), false);
        }
        long written;
        try {
            written = redis.call(entryKey, ops -> ops.eval(FILL, List.of(entryKey, lease),
                    fillArguments(token, stored, replaces)));
        } catch (GuardedRedis.Skipped e) {
            return new Fill<>(loaded.value(), false);
        }
        if (written == 0) {
            metrics.staleFillPrevented();
            return new Fill<>(loaded.value(), false);
        }
        return new Fill<>(loaded.value(), true);
    }

    /**
     * Fills the misses of a batch: takes every lease it can (and picks up entries other instances wrote) in one
     * pipeline, waits like {@link #fill} for keys whose lease another instance holds, then one batch load of what
     * is still missing and one pipelined write-back of what it holds the lease of. Under
     * {@code LargeValuePolicy.FAIL} a value above the limit fails its own key only: it is left out of the answer.
     *
     * @param missing entry key to cache key, in the caller's order
     * @param rejected the undecodable entries the batch read found, by entry key
     */
    Map<String, Fill<V>> fillAll(Map<String, K> missing, boolean redisUsable, Map<String, byte[]> rejected) {
        Map<String, Fill<V>> done = new LinkedHashMap<>();
        Map<String, byte[]> leases = new LinkedHashMap<>();
        Set<String> pending = new LinkedHashSet<>(missing.keySet());
        Map<String, byte[]> seen = new LinkedHashMap<>(rejected);
        if (redisUsable) {
            waitForLeases(pending, leases, seen, done);
        }
        Set<String> toLoad = new LinkedHashSet<>(leases.keySet());
        toLoad.addAll(pending); // past the wait, or Redis unusable: loaded, not written
        if (toLoad.isEmpty()) {
            return done;
        }
        Set<K> keys = new LinkedHashSet<>();
        toLoad.forEach(k -> keys.add(missing.get(k)));
        Map<K, V> loaded;
        long start = clock.nanoTime();
        Map<String, byte[]> leaseTokens = new LinkedHashMap<>();
        leases.forEach((entryKey, token) -> leaseTokens.put(lease(entryKey), token));
        try (LeaseKeeper.Kept kept = keeper.keep(leaseTokens)) {
            loaded = source.loadAll(keys);
        } catch (RuntimeException | Error e) {
            leases.forEach((entryKey, token) -> release(entryKey, lease(entryKey), token));
            throw e;
        }
        writeBack(toLoad, missing, loaded, clock.nanoTime() - start, leases, seen, done);
        return done;
    }

    /** Polls the batch's keys with the acquire script until each has an entry, a lease, or the wait ran out. */
    private void waitForLeases(Set<String> pending, Map<String, byte[]> leases, Map<String, byte[]> seen,
            Map<String, Fill<V>> done) {
        long deadline = clock.nanoTime() + waitNanos;
        long pause = FIRST_PAUSE_NANOS;
        boolean waited = false;
        while (!pending.isEmpty()) {
            Map<String, byte[]> tokens = new LinkedHashMap<>();
            Map<String, CompletableFuture<List<Object>>> replies = new LinkedHashMap<>();
            for (String entryKey : pending) {
                byte[] token = token();
                tokens.put(entryKey, token);
                byte[] expect = seen.getOrDefault(entryKey, NOTHING);
                replies.put(entryKey, redis.callAsync(entryKey, ops -> ops.evalAsync(ACQUIRE,
                        List.of(entryKey, lease(entryKey)), token, leaseMillis, expect)));
            }
            // Every script is on the wire before the first reply is awaited: one pipelined round trip.
            boolean retryAtOnce = false;
            for (Map.Entry<String, CompletableFuture<List<Object>>> r : replies.entrySet()) {
                String entryKey = r.getKey();
                List<Object> reply = r.getValue().exceptionally(t -> null).join();
                if (reply == null) {
                    continue; // Redis skipped: stays pending, loaded without writing after the loop
                }
                long status = (Long) reply.get(0);
                if (status == ACQUIRED) {
                    leases.put(entryKey, tokens.get(entryKey));
                    pending.remove(entryKey);
                } else if (status == FOUND) {
                    byte[] found = (byte[]) reply.get(1);
                    Lookup<V> lookup = entries.read(found);
                    if (lookup.answers()) {
                        done.put(entryKey, new Fill<>(lookup.answer(), true));
                        pending.remove(entryKey);
                    } else {
                        seen.put(entryKey, found);
                        retryAtOnce = true;
                    }
                }
            }
            if (replies.values().stream().allMatch(CompletableFuture::isCompletedExceptionally)) {
                return; // Redis skipped for all of them: load them without writing
            }
            if (pending.isEmpty() || retryAtOnce) {
                continue;
            }
            if (!waited) {
                metrics.fillWait();
                waited = true;
            }
            long left = deadline - clock.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                return; // the holders may be dead or slow: the rest is loaded here, not written
            }
            LockSupport.parkNanos(Math.min(pause, left));
            pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
        }
    }

    private void writeBack(Set<String> toLoad, Map<String, K> missing, Map<K, V> loaded, long nanos,
            Map<String, byte[]> leases, Map<String, byte[]> seen, Map<String, Fill<V>> done) {
        Map<String, CompletableFuture<Long>> writes = new LinkedHashMap<>();
        for (String entryKey : toLoad) {
            Optional<V> value = Optional.ofNullable(loaded.get(missing.get(entryKey)));
            byte[] token = leases.get(entryKey);
            if (token == null) {
                done.put(entryKey, new Fill<>(value, false));
                continue;
            }
            EntryCodec.Stored stored;
            try {
                stored = entries.encode(value, nanos);
            } catch (ValueTooLargeException tooLarge) {
                log.warn("cache '{}': {} left out of getAll: {}", cache, entryKey, tooLarge.getMessage());
                release(entryKey, lease(entryKey), token);
                done.put(entryKey, Fill.failed(tooLarge));
                continue;
            }
            if (stored == null) {
                release(entryKey, lease(entryKey), token);
                done.put(entryKey, new Fill<>(value, false));
                continue;
            }
            done.put(entryKey, new Fill<>(value, false));
            byte[][] arguments = fillArguments(token, stored, seen.getOrDefault(entryKey, NOTHING));
            writes.put(entryKey, redis.callAsync(entryKey, ops -> ops.evalAsync(FILL,
                    List.of(entryKey, lease(entryKey)), arguments)));
        }
        // All write-backs are on the wire before the first reply is awaited: one pipelined round trip.
        writes.forEach((entryKey, write) -> {
            Long ok = write.exceptionally(t -> null).join();
            if (ok != null && ok == 0) {
                metrics.staleFillPrevented();
            } else if (ok != null) {
                done.put(entryKey, new Fill<>(done.get(entryKey).value(), true));
            }
        });
    }

    /** fill.lua's arguments: without {@code replaces} the entry is written over whatever is there. */
    private static byte[][] fillArguments(byte[] token, EntryCodec.Stored stored, byte[] replaces) {
        byte[] ttl = ascii(stored.ttlMillis());
        return replaces == null ? new byte[][] {token, stored.bytes(), ttl}
                : new byte[][] {token, stored.bytes(), ttl, replaces};
    }

    private void release(String entryKey, String lease, byte[] token) {
        try {
            redis.call(entryKey, ops -> ops.eval(RELEASE, List.of(lease), token));
        } catch (GuardedRedis.Skipped e) {
            // The lease runs out by itself.
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
