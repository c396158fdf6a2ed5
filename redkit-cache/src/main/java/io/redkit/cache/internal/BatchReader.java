package io.redkit.cache.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.Collection;

import io.lettuce.core.SetArgs;
import io.redkit.Idempotency;

/**
 * {@code getAll}: near cache, one MGET for the rest (Lettuce splits it per slot on Cluster), single-flight per
 * missing key, fill leases taken in one pipeline, one batch load, one pipelined write-back. A key whose lease
 * another instance holds is loaded here too (a batch does not wait) but not written back.
 */
final class BatchReader<K, V> {

    private final DefaultCacheAside<K, V> cache;
    private final GuardedRedis redis;
    private final EntryCodec<V> entries;
    private final Filler<K, V> filler;
    private final CacheMetrics metrics;

    BatchReader(DefaultCacheAside<K, V> cache, GuardedRedis redis, EntryCodec<V> entries, Filler<K, V> filler,
            CacheMetrics metrics) {
        this.cache = cache;
        this.redis = redis;
        this.entries = entries;
        this.filler = filler;
        this.metrics = metrics;
    }

    Map<K, V> getAll(Collection<? extends K> requested) {
        Objects.requireNonNull(requested, "keys");
        Map<String, K> byEntry = new LinkedHashMap<>();
        for (K key : requested) {
            byEntry.putIfAbsent(cache.entryKey(Objects.requireNonNull(key, "keys must not contain null")), key);
        }
        Map<String, Optional<V>> found = new LinkedHashMap<>();
        NearCache<V> near = cache.near();
        long epoch = near != null ? near.epoch() : 0;
        List<String> toRead = new ArrayList<>(byEntry.size());
        for (String entryKey : byEntry.keySet()) {
            Optional<V> cached = near != null ? near.get(entryKey) : null;
            if (cached != null) {
                metrics.nearHit();
                found.put(entryKey, cached);
            } else {
                toRead.add(entryKey);
            }
        }
        boolean usable = readRedis(toRead, byEntry, found, epoch);
        Set<String> missing = new LinkedHashSet<>(toRead);
        missing.removeAll(found.keySet());
        if (!missing.isEmpty()) {
            fillMissing(missing, byEntry, found, usable, epoch);
        }
        Map<K, V> result = new LinkedHashMap<>();
        for (Map.Entry<String, K> e : byEntry.entrySet()) {
            Optional<V> value = found.get(e.getKey());
            if (value != null && value.isPresent()) {
                result.put(e.getValue(), value.get());
            }
        }
        return result;
    }

    private boolean readRedis(List<String> toRead, Map<String, K> byEntry, Map<String, Optional<V>> found,
            long epoch) {
        if (toRead.isEmpty()) {
            return true;
        }
        List<Optional<byte[]>> raw;
        try {
            raw = redis.call(ops -> ops.mget(toRead));
        } catch (GuardedRedis.Skipped e) {
            toRead.forEach(k -> metrics.miss());
            return false;
        }
        for (int i = 0; i < toRead.size(); i++) {
            String entryKey = toRead.get(i);
            Envelope.Decoded d = raw.get(i).map(entries::open).orElse(null);
            Optional<V> value = d != null && d.usable() ? entries.value(d) : null;
            if (value == null) {
                metrics.miss();
                continue;
            }
            metrics.hit();
            found.put(entryKey, value);
            cache.nearPut(entryKey, value, epoch);
            if (entries.refreshEarly(d)) {
                cache.refreshLater(byEntry.get(entryKey), entryKey);
            }
        }
        return true;
    }

    private void fillMissing(Set<String> missing, Map<String, K> byEntry, Map<String, Optional<V>> found,
            boolean usable, long epoch) {
        Map<String, CompletableFuture<Optional<V>>> owned = new LinkedHashMap<>();
        Map<String, CompletableFuture<Optional<V>>> joined = new LinkedHashMap<>();
        for (String entryKey : missing) {
            CompletableFuture<Optional<V>> mine = new CompletableFuture<>();
            CompletableFuture<Optional<V>> running = cache.flights().putIfAbsent(entryKey, mine);
            if (running == null) {
                owned.put(entryKey, mine);
            } else {
                joined.put(entryKey, running);
            }
        }
        try {
            if (!owned.isEmpty()) {
                loadOwned(owned, byEntry, found, usable, epoch);
            }
        } finally {
            owned.forEach((k, f) -> cache.flights().remove(k, f));
        }
        joined.forEach((k, f) -> found.put(k, DefaultCacheAside.join(f)));
    }

    private void loadOwned(Map<String, CompletableFuture<Optional<V>>> owned, Map<String, K> byEntry,
            Map<String, Optional<V>> found, boolean usable, long epoch) {
        Map<String, byte[]> leases = usable ? takeLeases(owned.keySet()) : Map.of();
        Set<K> keys = new LinkedHashSet<>();
        owned.keySet().forEach(k -> keys.add(byEntry.get(k)));
        long start = System.nanoTime();
        Map<K, V> loaded;
        try {
            loaded = filler.loadAll(keys);
        } catch (RuntimeException | Error e) {
            leases.forEach(filler::release);
            owned.values().forEach(f -> f.completeExceptionally(e));
            throw e;
        }
        long nanos = System.nanoTime() - start;
        List<CompletableFuture<Long>> writes = new ArrayList<>();
        List<String> written = new ArrayList<>();
        RuntimeException refused = null;
        for (Map.Entry<String, CompletableFuture<Optional<V>>> e : owned.entrySet()) {
            Optional<V> value = Optional.ofNullable(loaded.get(byEntry.get(e.getKey())));
            found.put(e.getKey(), value);
            e.getValue().complete(value);
            byte[] token = leases.get(e.getKey());
            if (token == null) {
                continue;
            }
            EntryCodec.Stored stored = null;
            try {
                stored = entries.encode(value, nanos);
            } catch (RuntimeException tooLarge) {
                refused = tooLarge;
            }
            if (stored == null) {
                filler.release(filler.lease(e.getKey()), token);
                continue;
            }
            String entryKey = e.getKey();
            byte[] bytes = stored.bytes();
            byte[] ttl = Filler.ascii(stored.ttlMillis());
            writes.add(redis.callAsync(ops -> ops.evalAsync(Filler.FILL, List.of(entryKey, filler.lease(entryKey)),
                    token, bytes, ttl)));
            written.add(entryKey);
        }
        // All write-backs are on the wire before the first reply is awaited: one pipelined round trip.
        for (int i = 0; i < writes.size(); i++) {
            Long ok = writes.get(i).exceptionally(t -> null).join();
            if (ok != null && ok == 0) {
                metrics.staleFillPrevented();
            } else if (ok != null) {
                cache.nearPut(written.get(i), found.get(written.get(i)), epoch);
            }
        }
        if (refused != null) {
            throw refused;
        }
    }

    /** SET NX PX of every lease in one pipeline; the tokens of those taken. */
    private Map<String, byte[]> takeLeases(Set<String> entryKeys) {
        SetArgs args = SetArgs.Builder.nx().px(filler.leaseTtl().toMillis());
        Map<String, CompletableFuture<String>> pending = new LinkedHashMap<>();
        Map<String, byte[]> tokens = new LinkedHashMap<>();
        for (String entryKey : entryKeys) {
            byte[] token = Filler.token();
            tokens.put(entryKey, token);
            String lease = filler.lease(entryKey);
            pending.put(entryKey, redis.callAsync(ops -> ops.executeAsync("SET NX", Idempotency.NON_IDEMPOTENT,
                    c -> c.set(lease, token, args))));
        }
        Map<String, byte[]> taken = new LinkedHashMap<>();
        pending.forEach((entryKey, f) -> {
            if ("OK".equals(f.exceptionally(t -> null).join())) {
                taken.put(entryKey, tokens.get(entryKey));
            }
        });
        return taken;
    }
}
