package io.redkit.lab.bench.cache;

import org.redisson.Redisson;
import org.redisson.api.RLocalCachedMap;
import org.redisson.api.RedissonClient;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Peers;
import io.redkit.lab.bench.cache.NearInvalidation.Pair;

/**
 * Two Redisson instances (two {@code RedissonClient}s) of one {@code RLocalCachedMap}, set up as the hit op's
 * ({@link RedissonLocalContender#open}: {@code SyncStrategy.INVALIDATE}). A's write is {@code fastPut} of the new
 * value; B's read is its local view, {@code getCachedMap().get(key)}, which never goes to Redis.
 */
final class RedissonNearPair implements Pair {

    private RedissonClient redissonA;
    private RedissonClient redissonB;
    private RLocalCachedMap<Integer, Product> a;
    private RLocalCachedMap<Integer, Product> b;

    @Override
    public String name() {
        return RedissonLocalContender.NAME;
    }

    @Override
    public String writer() {
        return "A: RLocalCachedMap.fastPut(key, new value)";
    }

    @Override
    public void setup(BenchEnv env) {
        String name = "bench:invalidation:" + name();
        redissonA = Redisson.create(Peers.redissonConfig(env));
        redissonB = Redisson.create(Peers.redissonConfig(env));
        a = RedissonLocalContender.open(redissonA, name);
        b = RedissonLocalContender.open(redissonB, name);
    }

    /** B writes the old value itself: it keeps it locally, and Redisson sends no instance its own invalidation. */
    @Override
    public void hold(Integer id) {
        b.fastPut(id, Products.revision(id, OLD));
        if (!servesOld(id)) {
            throw new IllegalStateException(name() + ": B kept no local copy of " + id);
        }
    }

    @Override
    public void write(Integer id) {
        a.fastPut(id, Products.revision(id, NEW));
    }

    @Override
    public boolean servesOld(Integer id) {
        Product p = b.getCachedMap().get(id);
        return p != null && p.stock() == OLD;
    }

    @Override
    public void close() {
        for (RedissonClient r : new RedissonClient[] {redissonA, redissonB}) {
            if (r != null) {
                r.shutdown();
            }
        }
    }
}
