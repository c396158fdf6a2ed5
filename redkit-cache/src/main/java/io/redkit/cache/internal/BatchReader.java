package io.redkit.cache.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.redkit.ObservedOperation;
import io.redkit.cache.ValueTooLargeException;

/**
 * {@code getAll}: near cache, one MGET for the rest (split per slot by the client on Cluster), single-flight per
 * missing key, then {@link Filler#fillAll}: leases and waits in pipelines, one batch load, one pipelined
 * write-back. The same entry reading and the same single-flight as {@code get}, not copies of them.
 */
final class BatchReader<K, V> {

    private static final KeyValue HIT = ObservedOperation.outcome("hit");
    private static final KeyValue MISS = ObservedOperation.outcome("miss");
    /** Up to this many keys, duplicates are found by comparing each with those before it: no set to allocate. */
    private static final int SCANNED = 16;

    private final Function<K, String> entryKey;
    private final GuardedRedis redis;
    private final EntryCodec<V> entries;
    private final Filler<K, V> filler;
    private final SingleFlight<V> flights;
    private final NearCache<V> near;
    private final boolean nearKeepsReads;
    private final Refresher<K> refresher;
    private final Predicate<String> bypass;
    private final CacheMetrics metrics;

    BatchReader(Function<K, String> entryKey, GuardedRedis redis, EntryCodec<V> entries, Filler<K, V> filler,
            SingleFlight<V> flights, NearCache<V> near, boolean nearKeepsReads, Refresher<K> refresher,
            Predicate<String> bypass, CacheMetrics metrics) {
        this.entryKey = entryKey;
        this.redis = redis;
        this.entries = entries;
        this.filler = filler;
        this.flights = flights;
        this.near = near;
        this.nearKeepsReads = nearKeepsReads;
        this.refresher = refresher;
        this.bypass = bypass;
        this.metrics = metrics;
    }

    /**
     * The values of {@code requested} that exist; {@code observation} gets the outcome: {@code hit} when the near
     * cache and Redis answered every key, else {@code miss} (some were loaded), with the numbers as high-cardinality
     * values. The distinct keys and what was found for them are arrays by position, not maps by entry key: on a
     * batch that Redis answers whole (the common case) three maps of entries were a third of what {@code getAll}
     * allocated beyond raw Lettuce's MGET on {@code bench cache}.
     */
    Map<K, V> getAll(Collection<? extends K> requested, Observation observation) {
        Objects.requireNonNull(requested, "keys");
        String[] entryKeys = new String[requested.size()];
        List<K> keys = new ArrayList<>(entryKeys.length);
        for (K key : requested) {
            if (keys.size() == entryKeys.length) {
                entryKeys = Arrays.copyOf(entryKeys, entryKeys.length * 2 + 1); // a collection that grew meanwhile
            }
            entryKeys[keys.size()] = entryKey.apply(Objects.requireNonNull(key, "keys must not contain null"));
            keys.add(key);
        }
        if (keys.size() < entryKeys.length) {
            entryKeys = Arrays.copyOf(entryKeys, keys.size());
        }
        int n = distinct(entryKeys, keys);
        if (n < entryKeys.length) {
            entryKeys = Arrays.copyOf(entryKeys, n);
        }
        @SuppressWarnings("unchecked")
        Lookup<V>[] found = new Lookup[n];
        long epoch = near.epoch();
        int[] toRead = new int[n];
        int reads = 0;
        Map<String, K> unconfirmed = null;
        for (int i = 0; i < n; i++) {
            if (bypass.test(entryKeys[i])) {
                // Its invalidation is not confirmed: from the source, never from Redis or the near cache.
                metrics.miss();
                unconfirmed = unconfirmed == null ? new LinkedHashMap<>() : unconfirmed;
                unconfirmed.put(entryKeys[i], keys.get(i));
                continue;
            }
            Lookup<V> cached = near.get(entryKeys[i]);
            if (cached.answers()) {
                metrics.nearHit();
                found[i] = cached;
            } else {
                toRead[reads++] = i;
            }
        }
        Map<String, byte[]> rejected = new HashMap<>();
        boolean usable = readRedis(entryKeys, keys, toRead, reads, found, rejected, epoch);
        Map<String, K> missing = null;
        for (int r = 0; r < reads; r++) {
            int i = toRead[r];
            if (found[i] == null) {
                missing = missing == null ? new LinkedHashMap<>() : missing;
                missing.put(entryKeys[i], keys.get(i));
            }
        }
        int misses = (missing == null ? 0 : missing.size()) + (unconfirmed == null ? 0 : unconfirmed.size());
        if (!observation.isNoop()) {
            observation.lowCardinalityKeyValue(misses == 0 ? HIT : MISS)
                    .highCardinalityKeyValue("keys", Integer.toString(n))
                    .highCardinalityKeyValue("misses", Integer.toString(misses));
        }
        if (misses > 0) {
            Map<String, Optional<V>> loaded = new HashMap<>();
            if (missing != null) {
                fillMissing(missing, usable, rejected, loaded, epoch);
            }
            if (unconfirmed != null) {
                fillMissing(unconfirmed, false, Map.of(), loaded, epoch);
            }
            for (int i = 0; i < n; i++) {
                Optional<V> answer = found[i] == null ? loaded.get(entryKeys[i]) : null;
                if (answer != null) {
                    found[i] = Lookup.of(answer);
                }
            }
        }
        Map<K, V> result = new LinkedHashMap<>(capacity(n));
        for (int i = 0; i < n; i++) {
            if (found[i] instanceof Lookup.Hit<V> hit) {
                result.put(keys.get(i), hit.value());
            }
        }
        return result;
    }

    /**
     * Drops every entry key after its first occurrence (and its key with it), keeping the order; the number left.
     * A batch of a few keys is scanned, a larger one hashed.
     */
    private static <K> int distinct(String[] entryKeys, List<K> keys) {
        int n = entryKeys.length;
        Set<String> seen = n > SCANNED ? new HashSet<>(capacity(n)) : null;
        int kept = 0;
        for (int i = 0; i < n; i++) {
            String key = entryKeys[i];
            if (seen == null ? indexOf(entryKeys, kept, key) >= 0 : !seen.add(key)) {
                continue;
            }
            entryKeys[kept] = key;
            keys.set(kept++, keys.get(i));
        }
        keys.subList(kept, n).clear();
        return kept;
    }

    private static int indexOf(String[] entryKeys, int within, String key) {
        for (int j = 0; j < within; j++) {
            if (entryKeys[j].equals(key)) {
                return j;
            }
        }
        return -1;
    }

    /** A hash map's capacity for {@code size} entries without a resize. */
    private static int capacity(int size) {
        return size < 3 ? size + 1 : (int) (size / 0.75f + 1);
    }

    /** MGET of the {@code reads} keys at {@code toRead}'s positions; false when Redis was not asked (breaker). */
    private boolean readRedis(String[] entryKeys, List<K> keys, int[] toRead, int reads, Lookup<V>[] found,
            Map<String, byte[]> rejected, long epoch) {
        if (reads == 0) {
            return true;
        }
        List<String> asked;
        if (reads == entryKeys.length) {
            asked = Arrays.asList(entryKeys);
        } else {
            String[] some = new String[reads];
            for (int r = 0; r < reads; r++) {
                some[r] = entryKeys[toRead[r]];
            }
            asked = Arrays.asList(some);
        }
        List<Optional<byte[]>> raw;
        try {
            raw = redis.read(asked.get(0), ops -> ops.mget(asked));
        } catch (GuardedRedis.Skipped e) {
            for (int r = 0; r < reads; r++) {
                metrics.miss();
            }
            return false;
        }
        for (int r = 0; r < reads; r++) {
            int i = toRead[r];
            String key = entryKeys[i];
            Lookup<V> lookup = entries.read(raw.get(r).orElse(null));
            if (!lookup.answers()) {
                metrics.miss();
                if (lookup instanceof Lookup.Miss<V> miss && miss.rejected() != null) {
                    rejected.put(key, miss.rejected());
                }
                continue;
            }
            metrics.hit();
            found[i] = lookup;
            if (nearKeepsReads) {
                near.put(key, lookup.answer(), epoch);
            }
            if (lookup.refreshEarly()) {
                refresher.refreshLater(keys.get(i), key);
            }
        }
        return true;
    }

    private void fillMissing(Map<String, K> missing, boolean usable, Map<String, byte[]> rejected,
            Map<String, Optional<V>> answers, long epoch) {
        SingleFlight.Claim<V> claim = flights.claim(missing.keySet());
        Map<String, K> owned = new LinkedHashMap<>();
        claim.owned().keySet().forEach(k -> owned.put(k, missing.get(k)));
        if (!owned.isEmpty()) {
            Map<String, Filler.Fill<V>> filled;
            try {
                filled = filler.fillAll(owned, usable, rejected);
            } catch (RuntimeException | Error e) {
                claim.owned().forEach((k, f) -> flights.finish(k, f, null, e));
                throw e;
            }
            claim.owned().forEach((k, f) -> {
                Filler.Fill<V> fill = filled.get(k);
                if (fill.failure() != null) {
                    flights.finish(k, f, null, fill.failure());
                    return; // this key alone failed: left out of the answer
                }
                flights.finish(k, f, fill.value(), null);
                answers.put(k, fill.value());
                if (fill.inRedis()) {
                    near.putLoaded(k, fill.value(), epoch);
                }
            });
        }
        claim.joined().forEach((k, f) -> {
            try {
                answers.put(k, flights.join(k, f));
            } catch (ValueTooLargeException tooLarge) {
                // That key alone failed, in the load another caller ran: left out, as when this batch loads it.
            }
        });
    }

    /** Runs XFetch refreshes off the reading thread. */
    interface Refresher<K> {
        /** Starts a refresh of {@code entryKey} unless one is running. */
        void refreshLater(K key, String entryKey);
    }
}
