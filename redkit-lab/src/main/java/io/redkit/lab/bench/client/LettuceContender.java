package io.redkit.lab.bench.client;

import java.util.concurrent.ExecutionException;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.redkit.lab.bench.BenchEnv;

/**
 * Raw Lettuce as a user would write it without redkit: one shared connection with Lettuce's defaults and the
 * same codec as redkit (String keys, byte[] values), called through its sync API, or through its async API with
 * every caller issuing a command and waiting for its future.
 */
final class LettuceContender extends ClientContender {

    private final boolean async;
    private RedisClient client;
    private StatefulRedisConnection<String, byte[]> connection;
    private RedisCommands<String, byte[]> sync;
    private RedisAsyncCommands<String, byte[]> asyncCommands;

    LettuceContender(ClientOp op, boolean async) {
        super(async ? "lettuce-async" : "lettuce-sync", op);
        this.async = async;
    }

    @Override
    public void setup(BenchEnv env) {
        client = RedisClient.create(RedisURI.create(env.url()));
        connection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
        sync = connection.sync();
        asyncCommands = connection.async();
    }

    @Override
    byte[] get(String key) throws InterruptedException, ExecutionException {
        return async ? asyncCommands.get(key).get() : sync.get(key);
    }

    @Override
    void set(String key, byte[] value) throws InterruptedException, ExecutionException {
        if (async) {
            asyncCommands.set(key, value).get();
        } else {
            sync.set(key, value);
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            connection.close();
        }
        if (client != null) {
            client.shutdown();
        }
    }
}
