package io.redkit.internal;

import java.time.Duration;
import java.util.function.Supplier;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.cluster.ClusterPushHandler;
import io.lettuce.core.cluster.RedisAdvancedClusterReactiveCommandsImpl;
import io.lettuce.core.cluster.StatefulRedisClusterConnectionImpl;
import io.lettuce.core.cluster.api.reactive.RedisAdvancedClusterReactiveCommands;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.json.JsonParser;

/**
 * The Cluster counterpart of {@link LazyFacadeConnection}: Lettuce's Cluster connection with its {@code sync()} (a
 * Proxy over {@code RedisAdvancedClusterCommands}) and {@code reactive()} facades built on first use, each once.
 * Written by hand for the same reason: Lettuce (7.7) builds both in its constructor and has no option against it.
 */
final class LazyFacadeClusterConnection<K, V> extends StatefulRedisClusterConnectionImpl<K, V> {

    private final LazyFacade<RedisAdvancedClusterCommands<K, V>> syncFacade =
            new LazyFacade<>(() -> super.newRedisAdvancedClusterCommandsImpl());
    private final LazyFacade<RedisAdvancedClusterReactiveCommands<K, V>> reactiveFacade =
            new LazyFacade<>(() -> super.newRedisAdvancedClusterReactiveCommandsImpl());

    LazyFacadeClusterConnection(RedisChannelWriter writer, ClusterPushHandler pushHandler, RedisCodec<K, V> codec,
            Duration timeout, Supplier<JsonParser> parser) {
        super(writer, pushHandler, codec, timeout, parser);
    }

    /* Lettuce's constructor asks for both facades for its eager fields: nothing is built there. */
    @Override
    protected RedisAdvancedClusterCommands<K, V> newRedisAdvancedClusterCommandsImpl() {
        return null;
    }

    @Override
    protected RedisAdvancedClusterReactiveCommandsImpl<K, V> newRedisAdvancedClusterReactiveCommandsImpl() {
        return null;
    }

    @Override
    public RedisAdvancedClusterCommands<K, V> sync() {
        return syncFacade.get();
    }

    @Override
    public RedisAdvancedClusterReactiveCommands<K, V> reactive() {
        return reactiveFacade.get();
    }
}
