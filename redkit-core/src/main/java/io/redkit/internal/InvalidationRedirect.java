package io.redkit.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.redkit.InvalidationListener;

/**
 * Where a RESP2 tracked connection has its invalidations sent ({@code CLIENT TRACKING ON REDIRECT <id>}): a
 * connection subscribed to {@code __redis__:invalidate}, on which the server publishes each invalidation as a message
 * whose payload is the array of keys, or a null for a flush.
 *
 * <p>One per socket: when it drops it is closed, not reconnected, and the tracked connection opens another. After a
 * reconnect Lettuce subscribes again before anything else, and a subscribed RESP2 connection takes no command but
 * (un)subscribe and PING, so the new socket's id, which the tracked connection must be told, could not be asked; here
 * {@code CLIENT ID} goes first, then {@code SUBSCRIBE}.
 */
final class InvalidationRedirect {

    static final String CHANNEL = "__redis__:invalidate";

    private final CompletableFuture<StatefulRedisPubSubConnection<String, List<String>>> connecting;
    private final CompletableFuture<Long> id;

    /**
     * Opens the connection; {@code lost} runs (on its event loop) when it drops after it was opened, and the
     * connection is closed by then.
     */
    InvalidationRedirect(
            Function<RedisCodec<String, List<String>>,
                    CompletableFuture<StatefulRedisPubSubConnection<String, List<String>>>> connect,
            InvalidationListener listener, Consumer<InvalidationRedirect> lost) {
        CompletableFuture<StatefulRedisPubSubConnection<String, List<String>>> opened;
        try {
            opened = connect.apply(new KeysCodec());
        } catch (RuntimeException e) {
            opened = CompletableFuture.failedFuture(e);
        }
        this.connecting = opened;
        this.id = opened.thenCompose(connection -> {
            connection.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, List<String> keys) {
                    if (keys != null) {
                        listener.invalidated(keys);
                    } else {
                        listener.reset("the server flushed its keys");
                    }
                }
            });
            // Before the first command: a drop from here on is a lost redirect, whatever the command's fate.
            connection.addListener(new RedisConnectionStateListener() {
                @Override
                public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                    connection.closeAsync();
                    lost.accept(InvalidationRedirect.this);
                }
            });
            return connection.async().clientId().thenCompose(
                    clientId -> connection.async().subscribe(CHANNEL).thenApply(subscribed -> clientId));
        }).toCompletableFuture();
    }

    /** The connection's id, once it is subscribed: what {@code CLIENT TRACKING ON REDIRECT} names. */
    CompletableFuture<Long> id() {
        return id;
    }

    /**
     * Completes once every message the server sent this connection before the call has reached the listener: a PING,
     * and a second one sent when the first is answered. In subscribed mode Lettuce completes the PING as it decodes
     * the pong and hands the messages read in the same socket read to the listener only after it; the second pong
     * comes in a later read, so it follows their delivery.
     */
    CompletableFuture<Void> delivered() {
        StatefulRedisPubSubConnection<String, List<String>> connection = connecting.getNow(null);
        if (connection == null || !id.isDone() || id.isCompletedExceptionally()) {
            return CompletableFuture.failedFuture(new IllegalStateException("no invalidation connection subscribed"));
        }
        try {
            return connection.async().ping().toCompletableFuture()
                    .thenCompose(pong -> connection.async().ping()).thenApply(pong -> null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    void close() {
        connecting.thenAccept(StatefulRedisPubSubConnection::closeAsync);
    }

    /**
     * Keys as strings, and a message's payload as the list of all its keys. Lettuce's pub/sub decoder reads an array
     * payload element by element, each replacing the last ({@code PubSubOutput.handleOutput}), so with a plain codec
     * a message naming several keys (broadcast mode gathers those written in one event-loop turn) would arrive as its
     * last key alone. Here each message's channel, decoded first, starts a new list and every element adds to it;
     * the payload delivered is that list, or a null when there was no element (a flush). One per connection, used
     * only on its event loop.
     */
    private static final class KeysCodec implements RedisCodec<String, List<String>> {

        private List<String> keys = new ArrayList<>();

        @Override
        public String decodeKey(ByteBuffer bytes) {
            keys = new ArrayList<>();
            return StringCodec.UTF8.decodeKey(bytes);
        }

        @Override
        public List<String> decodeValue(ByteBuffer bytes) {
            keys.add(StringCodec.UTF8.decodeKey(bytes));
            return keys;
        }

        @Override
        public ByteBuffer encodeKey(String key) {
            return StringCodec.UTF8.encodeKey(key);
        }

        @Override
        public ByteBuffer encodeValue(List<String> value) {
            throw new UnsupportedOperationException("nothing is published on the invalidation connection");
        }
    }
}
