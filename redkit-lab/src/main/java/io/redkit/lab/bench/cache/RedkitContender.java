package io.redkit.lab.bench.cache;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheFormat;
import io.redkit.cache.NearCacheInvalidation;
import io.redkit.cache.RedisCache;
import io.redkit.lab.bench.BenchEnv;

/**
 * redkit's {@code CacheAside.get} with its defaults (JSON by Jackson in the versioned envelope, single-flight, fill
 * lease, breaker, XFetch), optionally with its Caffeine near cache invalidated by the server's tracking
 * ({@code redkit-near-tracking}) or by redkit's channel ({@code redkit-near-pubsub}); or with
 * {@code format(PLAIN_JSON)} (issue 22 point 9), where with XFetch on a hit is a GET and the key's PTTL pipelined
 * behind it ({@code redkit-plain-pttl}) and with XFetch off one GET ({@code redkit-plain-get}): against
 * {@code redkit} they price the PTTL and the format.
 * Preloaded through its own loader.
 */
final class RedkitContender extends CacheContender implements BatchRead.Batched {

    /** The near cache's entries and TTL, for every near contender (Redisson's local cache too). */
    static final int NEAR_SIZE = 10_000;
    static final Duration NEAR_TTL = Duration.ofMinutes(1);

    private final NearCacheInvalidation near;
    private final CacheFormat format;
    private final boolean xfetch;
    private Redkit redkit;
    private CacheAside<Integer, Product> cache;

    /** With redkit's defaults and no near cache. */
    RedkitContender() {
        this("redkit", null, CacheFormat.ENVELOPE, true);
    }

    private RedkitContender(String name, NearCacheInvalidation near, CacheFormat format, boolean xfetch) {
        super(name);
        this.near = near;
        this.format = format;
        this.xfetch = xfetch;
    }

    /** With its near cache, invalidated by {@code mode}; named {@link #nearName}. */
    static RedkitContender near(NearCacheInvalidation mode) {
        return new RedkitContender(nearName(mode), mode, CacheFormat.ENVELOPE, true);
    }

    /** {@code redkit-near-tracking}, {@code redkit-near-pubsub}, … */
    static String nearName(NearCacheInvalidation mode) {
        return "redkit-near-" + mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** With {@code format(PLAIN_JSON)}, XFetch on (GET + PTTL) or off (one GET). */
    static RedkitContender plainJson(boolean xfetch) {
        return new RedkitContender(xfetch ? "redkit-plain-pttl" : "redkit-plain-get", null, CacheFormat.PLAIN_JSON,
                xfetch);
    }

    @Override
    public void setup(BenchEnv env) {
        redkit = Redkit.create(RedkitConfig.builder().url(env.url()).name("bench-" + name()).build());
        RedisCache.Builder<Integer, Product> builder = RedisCache.<Integer, Product>builder(redkit)
                .name(format == CacheFormat.ENVELOPE && near == null ? "bench-product" : "bench-" + name())
                .valueType(Product.class).ttl(Duration.ofHours(1)).loader(id -> Optional.of(source.load(id)));
        if (format != CacheFormat.ENVELOPE) {
            builder.format(format).earlyRefreshBeta(xfetch ? 1.0 : 0);
        }
        if (near != null) {
            builder.nearCache(NEAR_SIZE, NEAR_TTL).nearCacheInvalidation(near);
        }
        cache = builder.build();
        for (int i = 0; i < Products.KEYS; i++) {
            cache.get(Products.id(i));
        }
    }

    @Override
    Product read(Integer id) {
        return cache.get(id).orElse(null);
    }

    @Override
    Product readThrough(Integer id) {
        return cache.get(id).orElse(null);
    }

    /** {@code CacheAside.getAll}: one MGET when every key is in Redis. */
    @Override
    public Map<Integer, Product> readAll(List<Integer> ids) {
        return cache.getAll(ids);
    }

    /** The cache's own load counter, to cross-check the source's. */
    long cacheLoads() {
        return cache.stats().loads();
    }

    @Override
    public void close() {
        if (cache != null) {
            cache.close();
        }
        if (redkit != null) {
            redkit.close();
        }
    }
}
