package io.redkit.lab.bench.cache;

import java.time.Duration;

import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.codec.TypedJsonJacksonCodec;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Peers;

/**
 * Redisson's {@code RBucket<Product>} with {@code TypedJsonJacksonCodec} (JSON of one type, no class names in the
 * value) on Redisson's defaults; a bucket per call, as Redisson is used, on key strings made once (the same
 * head start raw Lettuce gets). A bucket has no loader, so a miss is the naive get / load / set.
 */
final class RedissonContender extends CacheContender {

    private final String[] keys = new String[Products.KEYS];
    private RedissonClient redisson;
    private TypedJsonJacksonCodec codec;

    RedissonContender() {
        super("redisson");
    }

    @Override
    public void setup(BenchEnv env) {
        redisson = Redisson.create(Peers.redissonConfig(env));
        for (int i = 0; i < Products.KEYS; i++) {
            keys[i] = key(i);
        }
        codec = new TypedJsonJacksonCodec(Product.class, Products.MAPPER);
        for (int i = 0; i < Products.KEYS; i++) {
            bucket(Products.id(i)).set(Products.product(i), Duration.ofHours(1));
        }
    }

    private RBucket<Product> bucket(Integer id) {
        return redisson.getBucket(id >= 0 && id < Products.KEYS ? keys[id] : key(id), codec);
    }

    private static String key(int id) {
        return "bench:cache:redisson:" + id;
    }

    @Override
    Product read(Integer id) {
        return bucket(id).get();
    }

    @Override
    Product readThrough(Integer id) throws InterruptedException {
        RBucket<Product> bucket = bucket(id);
        Product p = bucket.get();
        if (p == null) {
            p = source.load(id);
            bucket.set(p, Duration.ofHours(1));
        }
        return p;
    }

    @Override
    public void close() {
        if (redisson != null) {
            redisson.shutdown();
        }
    }
}
