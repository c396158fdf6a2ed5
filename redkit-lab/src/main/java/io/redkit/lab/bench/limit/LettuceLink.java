package io.redkit.lab.bench.limit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.redkit.lab.bench.BenchEnv;

/**
 * A raw Lettuce client with one connection, as the Lettuce-based contenders use it: Lettuce's defaults.
 *
 * @param <V> the value type of the codec
 */
record LettuceLink<V>(RedisClient client, StatefulRedisConnection<String, V> connection) implements AutoCloseable {

    /** Connects to the run's server with {@code codec}. */
    static <V> LettuceLink<V> open(BenchEnv env, RedisCodec<String, V> codec) {
        RedisClient client = RedisClient.create(RedisURI.create(env.url()));
        try {
            return new LettuceLink<>(client, client.connect(codec));
        } catch (RuntimeException e) {
            client.shutdown();
            throw e;
        }
    }

    /** Closes a link that may never have been opened. */
    static void close(LettuceLink<?> link) {
        if (link != null) {
            link.close();
        }
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
