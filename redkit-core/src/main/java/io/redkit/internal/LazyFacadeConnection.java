package io.redkit.internal;

import java.time.Duration;
import java.util.function.Supplier;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisReactiveCommandsImpl;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.json.JsonParser;
import io.lettuce.core.protocol.PushHandler;

/**
 * A Lettuce connection that builds its {@code sync()} and {@code reactive()} facades on first use, each once.
 *
 * <p>Written by hand because Lettuce (7.7) has no option for it: its constructor builds both eagerly. The sync
 * facade is a {@code java.lang.reflect.Proxy} over the ~400 methods of {@code RedisCommands}, and the reactive one
 * loads Reactor's operators: together ~0.4 s of a fresh JVM's first connect (1.3 s before, 0.9 s after). redkit
 * sends through {@code async()}, so in a service that never asks for the others neither is built. Lettuce reads
 * both only through {@link #sync()} and {@link #reactive()} (its fields stay {@code null} here), and its
 * overridable factory methods build them when asked.
 */
final class LazyFacadeConnection<K, V> extends StatefulRedisConnectionImpl<K, V> {

    private final LazyFacade<RedisCommands<K, V>> syncFacade =
            new LazyFacade<>(() -> super.newRedisSyncCommandsImpl());
    private final LazyFacade<RedisReactiveCommands<K, V>> reactiveFacade =
            new LazyFacade<>(() -> super.newRedisReactiveCommandsImpl());

    LazyFacadeConnection(RedisChannelWriter writer, PushHandler pushHandler, RedisCodec<K, V> codec,
            Duration timeout, Supplier<JsonParser> parser) {
        super(writer, pushHandler, codec, timeout, parser);
    }

    /* Lettuce's constructor asks for both facades for its eager fields: nothing is built there. */
    @Override
    protected RedisCommands<K, V> newRedisSyncCommandsImpl() {
        return null;
    }

    @Override
    protected RedisReactiveCommandsImpl<K, V> newRedisReactiveCommandsImpl() {
        return null;
    }

    @Override
    public RedisCommands<K, V> sync() {
        return syncFacade.get();
    }

    @Override
    public RedisReactiveCommands<K, V> reactive() {
        return reactiveFacade.get();
    }
}
