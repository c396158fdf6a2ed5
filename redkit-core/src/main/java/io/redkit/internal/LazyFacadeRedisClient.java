package io.redkit.internal;

import java.time.Duration;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.resource.ClientResources;

/**
 * Lettuce's standalone and Sentinel client, whose connections build their {@code sync()} and {@code reactive()}
 * command facades on first use instead of when the connection is made: redkit sends through {@code async()}.
 */
final class LazyFacadeRedisClient extends RedisClient {

    LazyFacadeRedisClient(ClientResources resources, RedisURI uri) {
        super(resources, uri);
    }

    /* Lettuce's own factory, with the same arguments: only the connection class differs. */
    @Override
    protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(RedisChannelWriter channelWriter,
            PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout) {
        return new LazyFacadeConnection<>(channelWriter, pushHandler, codec, timeout, getOptions().getJsonParser());
    }
}
