package io.redkit.lab.bench.cache;

import java.util.HashMap;
import java.util.Map;

import org.redisson.Redisson;
import org.redisson.api.RLocalCachedMap;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.LocalCachedMapOptions;
import org.redisson.api.options.LocalCachedMapOptions.ReconnectionStrategy;
import org.redisson.api.options.LocalCachedMapOptions.SyncStrategy;
import org.redisson.codec.TypedJsonJacksonCodec;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Peers;

/**
 * Redisson's near cache: an {@code RLocalCachedMap<Integer, Product>} (one Redis hash, JSON values by
 * {@code TypedJsonJacksonCodec}) whose local copies other instances drop on a write ({@code SyncStrategy.INVALIDATE},
 * over Redisson's topic) and which is cleared on reconnect, sized and timed as redkit's near cache. A hit is
 * {@code get} answered by the local copy; a miss is the naive get / load / {@code fastPut} (the map has no loader
 * here).
 */
final class RedissonLocalContender extends CacheContender {

    static final String NAME = "redisson-local";

    private RedissonClient redisson;
    private RLocalCachedMap<Integer, Product> map;

    RedissonLocalContender() {
        super(NAME);
    }

    @Override
    public void setup(BenchEnv env) {
        redisson = Redisson.create(Peers.redissonConfig(env));
        map = open(redisson, "bench:cache:" + NAME);
        Map<Integer, Product> all = new HashMap<>();
        for (int i = 0; i < Products.KEYS; i++) {
            all.put(Products.id(i), Products.product(i));
        }
        map.putAll(all);
        for (int i = 0; i < Products.KEYS; i++) {
            map.get(Products.id(i));
        }
    }

    /** The map called {@code name} with redkit's near-cache size and TTL, invalidated across instances. */
    static RLocalCachedMap<Integer, Product> open(RedissonClient redisson, String name) {
        return redisson.getLocalCachedMap(LocalCachedMapOptions.<Integer, Product>name(name)
                .codec(new TypedJsonJacksonCodec(Product.class, Integer.class, Product.class, Products.MAPPER))
                .cacheSize(RedkitContender.NEAR_SIZE).timeToLive(RedkitContender.NEAR_TTL)
                .syncStrategy(SyncStrategy.INVALIDATE).reconnectionStrategy(ReconnectionStrategy.CLEAR));
    }

    @Override
    Product read(Integer id) {
        return map.get(id);
    }

    @Override
    Product readThrough(Integer id) throws InterruptedException {
        Product p = map.get(id);
        if (p == null) {
            p = source.load(id);
            map.fastPut(id, p);
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
