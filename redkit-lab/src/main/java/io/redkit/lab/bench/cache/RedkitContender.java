package io.redkit.lab.bench.cache;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.cache.CacheAside;
import io.redkit.cache.RedisCache;
import io.redkit.lab.bench.BenchEnv;

/**
 * redkit's {@code CacheAside.get} with its defaults (JSON by Jackson in the versioned envelope, single-flight, fill
 * lease, breaker, XFetch), optionally with its Caffeine near cache; preloaded through its own loader.
 */
final class RedkitContender extends CacheContender implements BatchRead.Batched {

    private final boolean near;
    private Redkit redkit;
    private CacheAside<Integer, Product> cache;

    RedkitContender(boolean near) {
        super(near ? "redkit-near" : "redkit");
        this.near = near;
    }

    @Override
    public void setup(BenchEnv env) {
        redkit = Redkit.create(RedkitConfig.builder().url(env.url()).name("bench-" + name()).build());
        RedisCache.Builder<Integer, Product> builder = RedisCache.<Integer, Product>builder(redkit)
                .name(near ? "bench-product-near" : "bench-product").valueType(Product.class)
                .ttl(Duration.ofHours(1)).loader(id -> Optional.of(source.load(id)));
        if (near) {
            builder.nearCache(10_000, Duration.ofMinutes(1));
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
