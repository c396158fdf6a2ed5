package io.redkit.lab.bench.client;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Peers;

/**
 * Redisson's {@code RBucket<byte[]>} get/set with its defaults (a pool of connections rather than one multiplexed
 * connection); also the proof that Redisson and Lettuce run on one Netty in this jar.
 */
final class RedissonContender extends ClientContender {

    private RedissonClient redisson;

    RedissonContender(ClientOp op) {
        super("redisson", op);
    }

    @Override
    public void setup(BenchEnv env) {
        redisson = Redisson.create(Peers.redissonConfig(env));
    }

    @Override
    byte[] get(String key) {
        return redisson.<byte[]>getBucket(key, ByteArrayCodec.INSTANCE).get();
    }

    @Override
    void set(String key, byte[] value) {
        redisson.<byte[]>getBucket(key, ByteArrayCodec.INSTANCE).set(value);
    }

    @Override
    public void close() {
        if (redisson != null) {
            redisson.shutdown();
        }
    }
}
