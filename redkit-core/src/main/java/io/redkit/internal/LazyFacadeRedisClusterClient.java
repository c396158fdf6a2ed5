package io.redkit.internal;

import java.time.Duration;
import java.util.function.Supplier;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.cluster.ClusterPushHandler;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.StatefulRedisClusterConnectionImpl;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.json.JsonParser;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.resource.ClientResources;

/**
 * Lettuce's Cluster client, whose Cluster connections and per-node connections build their {@code sync()} and
 * {@code reactive()} facades on first use (see {@link LazyFacadeConnection}): redkit sends through {@code async()}.
 */
final class LazyFacadeRedisClusterClient extends RedisClusterClient {

    LazyFacadeRedisClusterClient(ClientResources resources, Iterable<RedisURI> seeds) {
        super(resources, seeds);
    }

    /* Lettuce's own factories, with the same arguments: only the connection classes differ. */
    @Override
    protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(RedisChannelWriter channelWriter,
            PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout, Supplier<JsonParser> parser) {
        return new LazyFacadeConnection<>(channelWriter, pushHandler, codec, timeout, parser);
    }

    @Override
    protected <V, K> StatefulRedisClusterConnectionImpl<K, V> newStatefulRedisClusterConnection(
            RedisChannelWriter channelWriter, ClusterPushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout,
            Supplier<JsonParser> parser) {
        return new LazyFacadeClusterConnection<>(channelWriter, pushHandler, codec, timeout, parser);
    }
}
