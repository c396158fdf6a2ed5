package io.redkit.lab.bench.cache;

import java.time.Duration;
import java.util.Optional;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheFormat;
import io.redkit.cache.RedisCache;
import io.redkit.lab.bench.BenchEnv;

/**
 * redkit's {@code CacheAside.get} with {@code format(PLAIN_JSON)} (issue 22 point 9): with XFetch on, a hit is a GET
 * and the key's PTTL pipelined behind it ({@code redkit-plain-pttl}); with XFetch off, one GET
 * ({@code redkit-plain-get}). Against {@code redkit} (the envelope, one GET) they price the PTTL and the format.
 */
final class RedkitPlainJsonContender extends CacheContender {

    private final boolean xfetch;
    private Redkit redkit;
    private CacheAside<Integer, Product> cache;

    RedkitPlainJsonContender(boolean xfetch) {
        super(xfetch ? "redkit-plain-pttl" : "redkit-plain-get");
        this.xfetch = xfetch;
    }

    @Override
    public void setup(BenchEnv env) {
        redkit = Redkit.create(RedkitConfig.builder().url(env.url()).name("bench-" + name()).build());
        cache = RedisCache.<Integer, Product>builder(redkit).name("bench-" + name()).valueType(Product.class)
                .format(CacheFormat.PLAIN_JSON).earlyRefreshBeta(xfetch ? 1.0 : 0).ttl(Duration.ofHours(1))
                .loader(id -> Optional.of(source.load(id))).build();
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
