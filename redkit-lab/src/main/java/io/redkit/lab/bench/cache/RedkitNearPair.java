package io.redkit.lab.bench.cache;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheFormat;
import io.redkit.cache.NearCacheInvalidation;
import io.redkit.cache.RedisCache;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.cache.NearInvalidation.Pair;

/**
 * Two redkit instances (two {@code Redkit}s) of one cache with a near cache invalidated by {@code mode}, in
 * {@code format(PLAIN_JSON)} with XFetch off (a hit in Redis is one GET), so that a foreign client's JSON is a
 * value. A's write is what a redkit user does, the source's change and then {@code invalidate(key)}; or, with
 * {@code foreign}, a raw Lettuce {@code SET} of the new JSON that redkit knows nothing of (what only the server's
 * tracking can tell B). B's read is {@code get}: while its near copy is there it does not go to Redis.
 */
final class RedkitNearPair implements Pair {

    private static final int HOLD_ATTEMPTS = 10;

    private final NearCacheInvalidation mode;
    private final boolean foreign;
    /** The ids whose source row has been changed to {@link #NEW}. */
    private final Set<Integer> changed = ConcurrentHashMap.newKeySet();
    private Redkit redkitA;
    private Redkit redkitB;
    private CacheAside<Integer, Product> a;
    private CacheAside<Integer, Product> b;
    private KeySchema keys;
    private RedisClient client;
    private StatefulRedisConnection<String, byte[]> connection;
    private RedisCommands<String, byte[]> raw;

    RedkitNearPair(NearCacheInvalidation mode, boolean foreign) {
        this.mode = mode;
        this.foreign = foreign;
    }

    @Override
    public String name() {
        return RedkitContender.nearName(mode) + (foreign ? "-foreign-set" : "");
    }

    @Override
    public String writer() {
        return foreign ? "raw Lettuce SET of the new JSON" : "A: source changed, CacheAside.invalidate(key)";
    }

    @Override
    public void setup(BenchEnv env) {
        String name = "bench-invalidation-" + name();
        keys = KeySchema.of("cache." + name);
        redkitA = Redkit.create(RedkitConfig.builder().url(env.url()).name(name + "-a").build());
        redkitB = Redkit.create(RedkitConfig.builder().url(env.url()).name(name + "-b").build());
        a = cache(redkitA, name);
        b = cache(redkitB, name);
        if (foreign) {
            client = RedisClient.create(RedisURI.create(env.url()));
            connection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
            raw = connection.sync();
        }
    }

    private CacheAside<Integer, Product> cache(Redkit redkit, String name) {
        return RedisCache.<Integer, Product>builder(redkit).name(name).valueType(Product.class)
                .format(CacheFormat.PLAIN_JSON).earlyRefreshBeta(0).ttl(Duration.ofHours(1))
                .nearCache(RedkitContender.NEAR_SIZE, RedkitContender.NEAR_TTL).nearCacheInvalidation(mode)
                .loader(id -> Optional.of(Products.revision(id, changed.contains(id) ? NEW : OLD))).build();
    }

    /**
     * B reads until a read is answered by its near cache. The first read loads and writes the key (with tracking,
     * that write's invalidation comes back to B on its tracked connection before the next read's reply, so it is
     * handled before anything is kept); a later one keeps what Redis answered.
     */
    @Override
    public void hold(Integer id) {
        for (int i = 0; i < HOLD_ATTEMPTS; i++) {
            long nearHits = b.stats().nearHits();
            Product p = b.get(id).orElseThrow();
            if (p.stock() != OLD) {
                throw new IllegalStateException(name() + ": B read revision " + p.stock() + " of a new key " + id);
            }
            if (b.stats().nearHits() > nearHits) {
                return;
            }
        }
        throw new IllegalStateException(name() + ": B kept no near copy of " + id + " in " + HOLD_ATTEMPTS
                + " reads");
    }

    @Override
    public void write(Integer id) {
        if (foreign) {
            raw.set(keys.key(String.valueOf(id)), Products.json(Products.revision(id, NEW)), SetArgs.Builder.ex(3600));
        } else {
            changed.add(id);
            a.invalidate(id);
        }
    }

    @Override
    public boolean servesOld(Integer id) {
        return b.get(id).map(p -> p.stock() == OLD).orElse(false);
    }

    @Override
    public void close() {
        for (CacheAside<Integer, Product> cache : Arrays.asList(a, b)) {
            if (cache != null) {
                cache.close();
            }
        }
        for (Redkit redkit : Arrays.asList(redkitA, redkitB)) {
            if (redkit != null) {
                redkit.close();
            }
        }
        if (connection != null) {
            connection.close();
        }
        if (client != null) {
            client.shutdown();
        }
    }
}
