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

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.redkit.ObservedOperation;
import io.redkit.RedisBreaker;
import io.redkit.RedisCommandException;
import io.redkit.ReadFrom;
import io.redkit.RedisReads;
import io.redkit.RedkitException;
import io.redkit.Redkit;
import io.redkit.Topology;
import io.redkit.cache.AfterCommit;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.CacheHealth;
import io.redkit.cache.CacheStats;
import io.redkit.cache.NearCacheInvalidation;

/**
 * The cache-aside read path: near cache, one GET, decode; on a miss one load per key in this instance
 * ({@link SingleFlight}), coordinated across instances by {@link Filler}. Batches are {@link BatchReader}'s,
 * invalidation {@link Invalidator}'s; this class wires them and owns nothing they share but the wiring.
 */
public final class DefaultCacheAside<K, V> implements CacheAside<K, V>, BatchReader.Refresher<K> {

    private static final Logger log = LoggerFactory.getLogger(DefaultCacheAside.class);
    private static final KeyValue NEAR_HIT = ObservedOperation.outcome("near_hit");
    private static final KeyValue HIT = ObservedOperation.outcome("hit");
    private static final KeyValue MISS = ObservedOperation.outcome("miss");
    private static final KeyValue BYPASS = ObservedOperation.outcome("bypass");
    private static final KeyValue FLIGHT_NONE = KeyValue.of("flight", "none");
    private static final KeyValue FLIGHT_LEADER = KeyValue.of("flight", "leader");
    private static final KeyValue FLIGHT_WAITER = KeyValue.of("flight", "waiter");

    private final CacheConfig<K, V> config;
    private final CacheMetrics metrics;
    private final GuardedRedis redis;
    private final EntryCodec<V> entries;
    private final Filler<K, V> filler;
    private final SingleFlight<V> flights;
    private final NearCache<V> near;
    private final boolean nearKeepsReads;
    private final Set<String> refreshing = ConcurrentHashMap.newKeySet();
    private final Executor refreshExecutor;
    private final ExecutorService ownExecutor;
    private final Invalidator invalidator;
    private final PendingInvalidations pending;
    // Sentinel and Cluster: an UNLINK the master took is kept pending until its replicas confirm it.
    private final boolean replicated;
    /** Whether the near cache's announcement goes right behind the UNLINK ({@link Invalidator#unlinkAnnounced}). */
    private final boolean announceBehindUnlink;
    private final BatchReader<K, V> batches;
    private final ObservedOperation gets;
    private final ObservedOperation batchGets;

    /** Builds the cache; with a near cache, subscribes to its invalidation channel. */
    public DefaultCacheAside(Redkit redkit, CacheConfig<K, V> config) {
        this.config = config;
        redkit.scripts().register(Filler.SCRIPTS);
        // A tracking near cache opens its own connection; the cache reads there, or nothing it keeps is watched.
        this.near = openNear(redkit, config);
        RedisReads reads;
        try {
            // Replica reads may have to connect; that can fail, so before any meter is registered.
            reads = near instanceof TrackingNearCache<V> tracking ? tracking.reads() : redkit.reads(config.readFrom());
            this.metrics = new CacheMetrics(redkit.meters(), redkit.config().name(), config.name());
        } catch (RuntimeException e) {
            near.close();
            throw e;
        }
        metrics.nearMeters(near::size, near::invalidationsReceived, near::flushes);
        RedisBreaker breaker = RedisBreaker.create(redkit, "cache " + config.name(), config.breakerWindow(),
                config.breakerProbeInterval(), config.breakerProbesToClose(),
                reads == redkit.commands() ? new RedisReads[] {reads} : new RedisReads[] {redkit.commands(), reads});
        this.redis = new GuardedRedis(config.name(), redkit.commands(), reads, breaker, metrics);
        this.entries = new EntryCodec<>(config, redkit.clock(), metrics);
        KeyValues cacheTag = KeyValues.of("cache", config.name());
        this.gets = new ObservedOperation(redkit, "redkit.cache.get", "cache get " + config.name(), cacheTag);
        this.batchGets = new ObservedOperation(redkit, "redkit.cache.get.all", "cache get all " + config.name(),
                cacheTag);
        this.filler = new Filler<>(config, redis, entries, new SourceLoads<>(config, redkit.clock(), metrics,
                new ObservedOperation(redkit, "redkit.cache.load", "cache load " + config.name(), cacheTag)),
                redkit.timer(), redkit.clock(), metrics);
        this.flights = new SingleFlight<>(config.name());
        // A replica may answer with what the master deleted after the near cache's mark was taken; kept near, it
        // would outlive the replication lag by the near TTL. Only master answers (reads or fills) are kept.
        this.nearKeepsReads = config.readFrom() == ReadFrom.MASTER;
        if (config.refreshExecutor() != null) {
            this.ownExecutor = null;
            this.refreshExecutor = config.refreshExecutor();
        } else {
            this.ownExecutor = refreshPool(config.name());
            this.refreshExecutor = ownExecutor;
        }
        this.invalidator = new Invalidator(redkit.commands(), redkit.background(), config.keySchema(),
                filler::lease, redis, redkit::dedicated);
        this.replicated = redkit.topology() != Topology.STANDALONE;
        this.announceBehindUnlink = near instanceof PubSubNearCache && redkit.topology() != Topology.CLUSTER;
        this.pending = new PendingInvalidations(config.name(), new PendingInvalidations.Retry() {
            @Override
            public boolean unlink(List<String> entryKeys) {
                boolean confirmed = replicated ? invalidator.unlinkConfirmed(entryKeys).confirmed()
                        : invalidator.unlink(entryKeys) >= 0;
                flights.forget(entryKeys);
                near.invalidate(entryKeys); // the other instances' near caches too
                return confirmed;
            }

            @Override
            public boolean unlinkAll() {
                List<String> unconfirmed = new ArrayList<>();
                if (replicated) {
                    invalidator.unlinkByPrefixConfirmed(unconfirmed::addAll);
                } else {
                    invalidator.unlinkByPrefix();
                }
                flights.forgetAll();
                near.invalidateAll();
                return unconfirmed.isEmpty();
            }
        }, redkit.clock(), metrics);
        this.batches = new BatchReader<>(this::entryKey, redis, entries, filler, flights, near, nearKeepsReads, this,
                pending::bypass, metrics);
    }

    /*
     * TRACKING unless it was not asked for or cannot be had: then redkit's channel, which only hears of redkit's own
     * invalidations, and the log says why.
     */
    private static <V> NearCache<V> openNear(Redkit redkit, CacheConfig<?, V> config) {
        if (config.nearCacheSize() == 0) {
            return NearCache.none();
        }
        NearCacheInvalidation mode = config.nearCacheInvalidation();
        if (mode != NearCacheInvalidation.PUBSUB) {
            String refused;
            if (config.readFrom() != ReadFrom.MASTER) {
                refused = "reads from replicas are not tracked";
            } else {
                try {
                    List<String> prefixes = mode == NearCacheInvalidation.TRACKING_BCAST
                            ? List.of(config.keySchema().namespace() + ":") : List.of();
                    return new TrackingNearCache<>(redkit, config.name(), prefixes, config.nearCacheSize(),
                            config.nearCacheTtl());
                } catch (RedkitException e) {
                    refused = e.getMessage();
                }
            }
            log.warn("cache '{}': near cache invalidated over redkit's channel, not by the server ({}): a write made"
                    + " without redkit is seen when the near entry's TTL ({}) ends", config.name(), refused,
                    config.nearCacheTtl());
        }
        return new PubSubNearCache<>(redkit, "redkit.cache.invalidations:" + config.keySchema().namespace(),
                config.nearCacheSize(), config.nearCacheTtl());
    }

    /** How the near cache hears of stale copies, as it turned out (the server may refuse tracking); empty without one. */
    public Optional<NearCacheInvalidation> nearCacheInvalidation() {
        if (near instanceof TrackingNearCache<V>) {
            return Optional.of(config.nearCacheInvalidation());
        }
        return near instanceof PubSubNearCache<V> ? Optional.of(NearCacheInvalidation.PUBSUB) : Optional.empty();
    }

    /**
     * Completes once every invalidation the server sent before the call has reached the near cache: after another
     * client's write has returned, no copy of the old value is served from then on. At once without a tracking near
     * cache.
     */
    public CompletableFuture<Void> nearInvalidationsDelivered() {
        return near instanceof TrackingNearCache<V> tracking ? tracking.reads().invalidationsDelivered()
                : CompletableFuture.completedFuture(null);
    }

    @Override
    public String name() {
        return config.name();
    }

    /**
     * Observed as {@code redkit.cache.get}: its outcome ({@code near_hit}, {@code hit}, {@code miss}, {@code bypass}
     * for a key whose invalidation is unconfirmed) and, on a miss, its part in the single flight: {@code leader} when
     * it ran the load (observed beneath as {@code redkit.cache.load}), {@code waiter} when it waited for another's.
     */
    @Override
    public Optional<V> get(K key) {
        Objects.requireNonNull(key, "key");
        return gets.active() ? gets.observe(o -> read(key, o.lowCardinalityKeyValue(FLIGHT_NONE)), v -> null)
                : read(key, Observation.NOOP);
    }

    private Optional<V> read(K key, Observation observation) {
        String entryKey = entryKey(key);
        if (pending.bypass(entryKey)) {
            // Its invalidation is not confirmed: Redis may hold (or get back) the old value. From the source, not kept.
            metrics.miss();
            observation.lowCardinalityKeyValue(BYPASS).lowCardinalityKeyValue(FLIGHT_WAITER);
            return flights.run(entryKey, () -> {
                observation.lowCardinalityKeyValue(FLIGHT_LEADER);
                return filler.fill(key, entryKey, false, null).value();
            });
        }
        long epoch = near.epoch();
        Lookup<V> cached = near.get(entryKey);
        if (cached.answers()) {
            metrics.nearHit();
            observation.lowCardinalityKeyValue(NEAR_HIT);
            return cached.answer();
        }
        Lookup<V> lookup;
        boolean usable = true;
        try {
            lookup = read(entryKey);
        } catch (GuardedRedis.Skipped e) {
            lookup = Lookup.miss();
            usable = false;
        } catch (RedisCommandException wrongType) {
            // Another type in the entry's place: a miss whose fill overwrites it (acquire.lua tolerates it).
            metrics.wrongType();
            log.warn("cache '{}': {} holds another type ({}); overwriting it with the loaded value", config.name(),
                    entryKey, wrongType.getMessage());
            lookup = Lookup.miss();
        }
        if (lookup.answers()) {
            metrics.hit();
            observation.lowCardinalityKeyValue(HIT);
            if (lookup.refreshEarly()) {
                refreshLater(key, entryKey);
            }
            if (nearKeepsReads) {
                near.put(entryKey, lookup.answer(), epoch);
            }
            return lookup.answer();
        }
        metrics.miss();
        observation.lowCardinalityKeyValue(MISS).lowCardinalityKeyValue(FLIGHT_WAITER);
        byte[] rejected = ((Lookup.Miss<V>) lookup).rejected();
        boolean redisUsable = usable;
        return flights.run(entryKey, () -> {
            observation.lowCardinalityKeyValue(FLIGHT_LEADER);
            Filler.Fill<V> fill = filler.fill(key, entryKey, redisUsable, rejected);
            if (fill.inRedis()) {
                near.putLoaded(entryKey, fill.value(), epoch);
            }
            return fill.value();
        });
    }

    /** One GET, or in plain JSON with XFetch on, a GET and the key's PTTL in the same round trip. */
    private Lookup<V> read(String entryKey) {
        if (entries.needsTtl()) {
            GuardedRedis.Fetched fetched = redis.readWithTtl(entryKey);
            return entries.read(fetched.bytes(), fetched.ttl());
        }
        return entries.read(redis.read(entryKey, reads -> reads.get(entryKey)).orElse(null));
    }

    @Override
    public Map<K, V> getAll(Collection<? extends K> keys) {
        return batchGets.active() ? batchGets.observe(o -> batches.getAll(keys, o), v -> null)
                : batches.getAll(keys, Observation.NOOP);
    }

    @Override
    public long invalidate(Collection<? extends K> keys) {
        List<String> entryKeys = entryKeys(keys);
        if (entryKeys.isEmpty()) {
            return 0;
        }
        boolean announced = false;
        try {
            long unlinked;
            if (announceBehindUnlink) {
                Invalidator.Announced done = invalidator.unlinkAnnounced(entryKeys, () -> near.announce(entryKeys));
                announced = done.after();
                unlinked = done.existed();
            } else {
                unlinked = invalidator.unlink(entryKeys);
            }
            if (replicated && config.retryFailedInvalidations()) {
                pending.awaitConfirmation(entryKeys); // until the replicas have it: a failover may lose it
            }
            return unlinked;
        } catch (RedkitException e) {
            if (config.retryFailedInvalidations()) {
                pending.add(entryKeys, e);
            }
            throw e;
        } finally {
            // After the UNLINK, so that a read racing with it cannot put the old entry back into the near cache;
            // and whatever happened remotely, this instance no longer serves what it was told is stale. The
            // other instances are told again unless they heard of it after the UNLINK ran.
            flights.forget(entryKeys);
            if (announced) {
                near.forget(entryKeys);
            } else {
                near.invalidate(entryKeys);
            }
        }
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
                // The transaction is committed. Remembered and retried (see invalidate) unless turned off; then the
                // entry lives until its TTL. Say so loudly, once per failure.
                if (!config.retryFailedInvalidations()) {
                    log.warn("cache '{}': invalidation after commit failed, entries may be stale until their TTL: {}",
                            config.name(), e.toString());
                }
            }
        });
    }

    @Override
    public long invalidateByPrefix(String... prefixParts) {
        long mark = pending.mark();
        try {
            long unlinked;
            List<String> unconfirmed = new ArrayList<>();
            if (replicated && config.retryFailedInvalidations()) {
                // Each page sent with its replicas' confirmation: the master may fail over before replicating it.
                unlinked = invalidator.unlinkByPrefixConfirmed(unconfirmed::addAll, prefixParts);
                pending.unconfirmed(unconfirmed);
            } else {
                unlinked = invalidator.unlinkByPrefix(prefixParts);
            }
            if (prefixParts.length == 0 && unconfirmed.isEmpty()) {
                pending.coveredWholeCache(mark);
            }
            return unlinked;
        } catch (RedkitException e) {
            if (config.retryFailedInvalidations()) {
                pending.addWholeCache(e); // a superset of the prefix: just as safe
            }
            throw e;
        } finally {
            flights.forgetAll();
            near.invalidateAll();
        }
    }

    @Override
    public CacheHealth health() {
        return redis.health();
    }

    @Override
    public CacheStats stats() {
        return metrics.snapshot();
    }

    /** How many key invalidations reached the near cache from the server or other instances (0 without one). */
    public long nearCacheInvalidationsReceived() {
        return near.invalidationsReceived();
    }

    /** How many times the near cache was flushed (0 without one). */
    public long nearCacheFlushes() {
        return near.flushes();
    }

    @Override
    public void close() {
        pending.close();
        near.close();
        redis.close();
        metrics.close();
        if (ownExecutor != null) {
            ownExecutor.shutdownNow();
        }
    }

    String entryKey(K key) {
        List<String> parts = config.keyParts().apply(key);
        if (parts == null || parts.isEmpty()) {
            throw new IllegalArgumentException("keyParts gave no parts for key " + key);
        }
        return config.keySchema().key(parts);
    }

    private List<String> entryKeys(Collection<? extends K> keys) {
        Objects.requireNonNull(keys, "keys");
        List<String> result = new ArrayList<>(keys.size());
        for (K key : keys) {
            result.add(entryKey(Objects.requireNonNull(key, "keys must not contain null")));
        }
        return result;
    }

    @Override
    public void refreshLater(K key, String entryKey) {
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
