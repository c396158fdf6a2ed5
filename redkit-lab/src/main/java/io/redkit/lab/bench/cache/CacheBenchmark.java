package io.redkit.lab.bench.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.cache.NearCacheInvalidation;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;
import io.redkit.lab.bench.Ceiling;
import io.redkit.lab.bench.Contender;

/**
 * {@code bench cache}: the cache hit path, a GET and a JSON decode of a ~200-byte product over 1000 preloaded keys,
 * through redkit's {@code CacheAside}, raw Lettuce + Jackson, Spring's {@code RedisCacheManager}, Redisson's
 * {@code RBucket} with a JSON codec, and the near caches: redkit's invalidated by the server's tracking and by
 * redkit's channel, Redisson's {@code RLocalCachedMap}; then a miss storm per contender, its source loads counted,
 * and the near caches' invalidation latency ({@link NearInvalidation}). The batch op reads {@value Products#BATCH}
 * products per call through redkit's {@code getAll} and raw Lettuce's MGET + Jackson. The ceiling is
 * {@code redis-benchmark} doing raw Lettuce's GET (MGET) on the same keys.
 */
public final class CacheBenchmark implements Benchmark {

    static final String HIT = "hit";
    static final String BATCH = "batch";
    /** The bounds: a near hit's p50 below 1 µs, an invalidation's p99 at most 1 ms. */
    static final double NEAR_HIT_US = 1;
    static final double INVALIDATION_US = 1_000;
    private static final List<NearCacheInvalidation> NEAR_MODES = List.of(NearCacheInvalidation.TRACKING,
            NearCacheInvalidation.PUBSUB);

    @Override
    public String name() {
        return "cache";
    }

    @Override
    public String description() {
        return "cache hit (GET + JSON decode of a ~" + Products.APPROX_JSON_BYTES + "-byte product, "
                + Products.KEYS + " keys) through redkit CacheAside vs raw Lettuce + Jackson, Spring RedisCacheManager,"
                + " Redisson RBucket (JSON codec) and the near caches (redkit's by tracking and by pub/sub, Redisson"
                + " RLocalCachedMap); a batch of " + Products.BATCH + " (redkit getAll vs raw Lettuce MGET + Jackson);"
                + " then a miss storm per contender and the near caches' invalidation latency, beside its floor on"
                + " this machine (raw Lettuce tracking into a map)";
    }

    @Override
    public List<String> ops() {
        return List.of(HIT, BATCH);
    }

    /** The hit op: every contender; the batch op: redkit's getAll and raw Lettuce's MGET (the others have none). */
    @Override
    public List<Contender> contenders(String op) {
        if (op.equals(BATCH)) {
            return List.of(new BatchRead(new RedkitContender()), new BatchRead(new LettuceJacksonContender()));
        }
        return List.copyOf(hitContenders());
    }

    private static List<CacheContender> hitContenders() {
        return List.of(new RedkitContender(), new LettuceJacksonContender(), new SpringContender(false),
                new RedissonContender(), RedkitContender.near(NearCacheInvalidation.TRACKING),
                RedkitContender.near(NearCacheInvalidation.PUBSUB), new RedissonLocalContender(),
                RedkitContender.plainJson(true), RedkitContender.plainJson(false));
    }

    /** Writes raw Lettuce's keys (the ceiling reads them too); the other contenders fill their own in setup. */
    @Override
    public void prepare(String op, BenchEnv env) {
        RedisClient client = RedisClient.create(RedisURI.create(env.url()));
        try (StatefulRedisConnection<String, byte[]> c =
                client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE))) {
            for (int i = 0; i < Products.KEYS; i++) {
                c.async().set(Products.lettuceKey(Products.id(i)), Products.json(Products.product(i)));
            }
            c.sync().ping();
        } finally {
            client.shutdown();
        }
    }

    /** GET of one of raw Lettuce's keys; for the batch op, MGET of {@value Products#BATCH} of them. */
    @Override
    public Optional<Ceiling> ceiling(String op, BenchEnv env) {
        List<String> args = new ArrayList<>(List.of("-r", String.valueOf(Products.KEYS), op.equals(BATCH) ? "MGET"
                : "GET"));
        for (int i = 0; i < (op.equals(BATCH) ? Products.BATCH : 1); i++) {
            args.add(Products.LETTUCE_PREFIX + "__rand_int__");
        }
        return Optional.of(Ceiling.of(args));
    }

    @Override
    public List<Aim> aims() {
        List<Aim> aims = new ArrayList<>(List.of(new Aim("redkit", "lettuce+jackson", 64, 0.9),
                new Aim("redkit", "spring", 64, 1.0), new Aim("redkit", "redisson", 64, 1.0)));
        aims.addAll(Aim.againstRaw("redkit", "lettuce+jackson"));
        return aims;
    }

    /**
     * A near-cache hit stays under a microsecond at its median (at 1, 16 and 64 callers), and B stops serving its
     * copy within a millisecond of A's write at the 99th percentile (issue 22 point 6), for each way of hearing.
     */
    @Override
    public List<LatencyAim> latencyAims() {
        List<LatencyAim> aims = new ArrayList<>();
        for (NearCacheInvalidation mode : NEAR_MODES) {
            aims.addAll(LatencyAim.atRawCallers(HIT, RedkitContender.nearName(mode), Percentile.P50, NEAR_HIT_US,
                    true));
        }
        for (NearInvalidation.Pair pair : invalidationPairs()) {
            if (!pair.name().equals(RedissonLocalContender.NAME) && !pair.name().equals(LettuceTrackingPair.NAME)) {
                aims.add(new LatencyAim(NearInvalidation.FIELD, pair.name(), 1, Percentile.P99, INVALIDATION_US,
                        false));
            }
        }
        return aims;
    }

    /**
     * Each near cache's pair of instances: redkit's by tracking (A's {@code invalidate}, and a foreign raw SET that
     * only the server sees), by broadcast tracking and by pub/sub (A's {@code invalidate}), Redisson's
     * {@code RLocalCachedMap}, and the floor: raw Lettuce tracking into a map, what the machine itself costs.
     */
    static List<NearInvalidation.Pair> invalidationPairs() {
        return List.of(new RedkitNearPair(NearCacheInvalidation.TRACKING, false),
                new RedkitNearPair(NearCacheInvalidation.TRACKING, true),
                new RedkitNearPair(NearCacheInvalidation.TRACKING_BCAST, false),
                new RedkitNearPair(NearCacheInvalidation.PUBSUB, false), new RedissonNearPair(),
                new LettuceTrackingPair());
    }

    /** The miss storm, for every hit contender and Spring with its locking cache writer. */
    @Override
    public List<Extra> extras(BenchEnv env) throws Exception {
        List<CacheContender> storm = new ArrayList<>(hitContenders());
        storm.add(3, new SpringContender(true));
        Map<String, String> fill = new LinkedHashMap<>();
        fill.put("redkit", "CacheAside.get: single-flight per key, fill lease across instances");
        fill.put("lettuce+jackson", "naive GET / load / SET EX");
        fill.put("spring", "Cache.get(key, Callable) (what @Cacheable(sync = true) calls), default non-locking"
                + " writer");
        fill.put("spring-locking", "Cache.get(key, Callable), RedisCacheWriter.lockingRedisCacheWriter (one lock"
                + " per cache name)");
        fill.put("redisson", "naive RBucket get / load / set (a bucket has no loader)");
        for (NearCacheInvalidation mode : NEAR_MODES) {
            fill.put(RedkitContender.nearName(mode), "CacheAside.get with near cache (" + mode + ")");
        }
        fill.put(RedissonLocalContender.NAME, "naive RLocalCachedMap get / load / fastPut");
        return List.of(MissStorm.run(env, storm, fill),
                NearInvalidation.run(env, invalidationPairs(), NearInvalidation.SAMPLES));
    }
}
