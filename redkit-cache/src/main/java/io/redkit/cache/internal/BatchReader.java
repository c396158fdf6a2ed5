package io.redkit.cache.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
     * values.
     */
    Map<K, V> getAll(Collection<? extends K> requested, Observation observation) {
        Objects.requireNonNull(requested, "keys");
        Map<String, K> byEntry = new LinkedHashMap<>();
        for (K key : requested) {
            byEntry.putIfAbsent(entryKey.apply(Objects.requireNonNull(key, "keys must not contain null")), key);
        }
        long epoch = near.epoch();
        Map<String, Optional<V>> answers = new LinkedHashMap<>();
        List<String> toRead = new ArrayList<>(byEntry.size());
        Map<String, K> unconfirmed = new LinkedHashMap<>();
        for (String key : byEntry.keySet()) {
            if (bypass.test(key)) {
                // Its invalidation is not confirmed: from the source, never from Redis or the near cache.
                metrics.miss();
                unconfirmed.put(key, byEntry.get(key));
                continue;
            }
            Lookup<V> cached = near.get(key);
            if (cached.answers()) {
                metrics.nearHit();
                answers.put(key, cached.answer());
            } else {
                toRead.add(key);
            }
        }
        Map<String, byte[]> rejected = new LinkedHashMap<>();
        boolean usable = readRedis(toRead, byEntry, answers, rejected, epoch);
        Map<String, K> missing = new LinkedHashMap<>();
        for (String key : toRead) {
            if (!answers.containsKey(key)) {
                missing.put(key, byEntry.get(key));
            }
        }
        if (!observation.isNoop()) {
            observation.lowCardinalityKeyValue(missing.isEmpty() && unconfirmed.isEmpty() ? HIT : MISS)
                    .highCardinalityKeyValue("keys", Integer.toString(byEntry.size()))
                    .highCardinalityKeyValue("misses", Integer.toString(missing.size() + unconfirmed.size()));
        }
        if (!missing.isEmpty()) {
            fillMissing(missing, usable, rejected, answers, epoch);
        }
        if (!unconfirmed.isEmpty()) {
            fillMissing(unconfirmed, false, Map.of(), answers, epoch);
        }
        Map<K, V> result = new LinkedHashMap<>();
        byEntry.forEach((key, k) -> {
            Optional<V> value = answers.get(key);
            if (value != null && value.isPresent()) {
                result.put(k, value.get());
            }
        });
        return result;
    }

    private boolean readRedis(List<String> toRead, Map<String, K> byEntry, Map<String, Optional<V>> answers,
            Map<String, byte[]> rejected, long epoch) {
        if (toRead.isEmpty()) {
            return true;
        }
        List<Optional<byte[]>> raw;
        try {
            raw = redis.read(toRead.get(0), reads -> reads.mget(toRead));
        } catch (GuardedRedis.Skipped e) {
            toRead.forEach(k -> metrics.miss());
            return false;
        }
        for (int i = 0; i < toRead.size(); i++) {
            String key = toRead.get(i);
            Lookup<V> lookup = entries.read(raw.get(i).orElse(null));
            if (!lookup.answers()) {
                metrics.miss();
                if (lookup instanceof Lookup.Miss<V> miss && miss.rejected() != null) {
                    rejected.put(key, miss.rejected());
                }
                continue;
            }
            metrics.hit();
            answers.put(key, lookup.answer());
            if (nearKeepsReads) {
                near.put(key, lookup.answer(), epoch);
            }
            if (lookup.refreshEarly()) {
                refresher.refreshLater(byEntry.get(key), key);
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
