package io.redkit.lab.bench.client;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.config.Config;

import io.redkit.lab.bench.BenchEnv;

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
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + env.host() + ":" + env.port());
        if (env.password() != null) {
            config.setPassword(env.password());
        }
        redisson = Redisson.create(config);
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
