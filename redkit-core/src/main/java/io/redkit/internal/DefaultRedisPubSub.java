package io.redkit.internal;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.pubsub.api.async.RedisPubSubAsyncCommands;
import io.redkit.Outcome;
import io.redkit.RedisPubSub;
import io.redkit.RedkitException;

/**
 * One subscriber connection for the whole process, opened on first use. Channels are subscribed on the server
 * while at least one listener wants them; every listener of a channel gets every message. The same connection
 * logic serves classic pub/sub (SUBSCRIBE) and, on a single server, sharded pub/sub (SSUBSCRIBE, Redis 7): the
 * two differ only in the commands and the events, which {@link Kind} names. Sharded pub/sub on Cluster needs a
 * connection per shard: {@link ClusterShardedPubSub}.
 *
 * <p>After a drop, Lettuce reconnects and sends SUBSCRIBE again. Until the server has confirmed every channel,
 * messages are still being missed: {@link #isConnected()} stays false and the reconnect actions wait, so that a
 * listener that resynchronises (flushes a near cache) does so after the gap has closed, not inside it.
 */
public final class DefaultRedisPubSub implements PubSubSeam {

    private static final Logger log = LoggerFactory.getLogger(DefaultRedisPubSub.class);

    private final Supplier<StatefulRedisPubSubConnection<String, byte[]>> connector;
    private final Kind kind;
    private final Duration timeout;
    private final Map<String, List<Listener>> listeners = new ConcurrentHashMap<>();
    private final List<Runnable> reconnectActions = new CopyOnWriteArrayList<>();
    private final Set<String> unconfirmed = ConcurrentHashMap.newKeySet();
    private volatile StatefulRedisPubSubConnection<String, byte[]> connection;
    /** Changed on connection events only, under this object's lock; read without it. */
    private volatile Link link = Link.UP;
    /** How many drops so far; a resync that finishes after a newer drop leaves the link alone. Guarded by this. */
    private long drops;
    private volatile boolean closed;

    /** Where the subscriber connection stands; messages are missed unless UP. */
    private enum Link {
        /** Connected, every subscription confirmed. */
        UP,
        /** Dropped; Lettuce reconnects. */
        DOWN,
        /** Reconnected; waiting for the server to confirm every subscription again. */
        RESUBSCRIBING,
        /** Every subscription confirmed; the reconnect actions are running. */
        RESYNCING
    }

    /** Which pub/sub the connection speaks: its two commands. */
    public enum Kind {
        /** SUBSCRIBE/UNSUBSCRIBE; messages arrive as {@code message}. */
        CLASSIC("SUBSCRIBE") {
            @Override
            RedisFuture<Void> subscribe(RedisPubSubAsyncCommands<String, byte[]> commands, String channel) {
                return commands.subscribe(channel);
            }

            @Override
            void unsubscribe(RedisPubSubAsyncCommands<String, byte[]> commands, String channel) {
                commands.unsubscribe(channel);
            }
        },
        /** SSUBSCRIBE/SUNSUBSCRIBE; messages arrive as {@code smessage}. */
        SHARDED("SSUBSCRIBE") {
            @Override
            RedisFuture<Void> subscribe(RedisPubSubAsyncCommands<String, byte[]> commands, String channel) {
                return commands.ssubscribe(channel);
            }

            @Override
            void unsubscribe(RedisPubSubAsyncCommands<String, byte[]> commands, String channel) {
                commands.sunsubscribe(channel);
            }
        };

        private final String subscribeCommand;

        Kind(String subscribeCommand) {
            this.subscribeCommand = subscribeCommand;
        }

        abstract RedisFuture<Void> subscribe(RedisPubSubAsyncCommands<String, byte[]> commands, String channel);

        abstract void unsubscribe(RedisPubSubAsyncCommands<String, byte[]> commands, String channel);
    }

    /** Creates the seam; {@code connector} opens the subscriber connection when first needed. */
    public DefaultRedisPubSub(Supplier<StatefulRedisPubSubConnection<String, byte[]>> connector, Kind kind,
            Duration timeout) {
        this.connector = connector;
        this.kind = kind;
        this.timeout = timeout;
    }

    @Override
    public Subscription subscribe(String channel, Listener listener) {
        PubSubSupport.checkSubscription(channel, listener);
        StatefulRedisPubSubConnection<String, byte[]> c = connection();
        List<Listener> forChannel = listeners.computeIfAbsent(channel, k -> new CopyOnWriteArrayList<>());
        forChannel.add(listener);
        // SUBSCRIBE is idempotent on the server, so a second listener of a channel may send it again safely.
        try {
            PubSubSupport.await(kind.subscribeCommand + " " + channel,
                    kind.subscribe(c.async(), channel).toCompletableFuture(), timeout, () -> null);
        } catch (RuntimeException e) {
            // Lettuce tracks a channel only once the server confirmed it: a listener left here would wait for a
            // re-subscription that never comes, and hold the link RESUBSCRIBING for good.
            unsubscribe(channel, listener);
            throw e;
        }
        return PubSubSupport.subscription(channel, () -> unsubscribe(channel, listener));
    }

    @Override
    public AutoCloseable onReconnect(Runnable action) {
        Objects.requireNonNull(action, "action");
        connection();
        reconnectActions.add(action);
        return () -> reconnectActions.remove(action);
    }

    @Override
    public boolean isConnected() {
        StatefulRedisPubSubConnection<String, byte[]> c = connection;
        return c != null && !closed && c.isOpen() && link == Link.UP;
    }

    private void unsubscribe(String channel, Listener listener) {
        boolean last = listeners.computeIfPresent(channel, (k, list) -> {
            list.remove(listener);
            return list.isEmpty() ? null : list;
        }) == null;
        if (last) {
            subscribed(channel); // nothing to wait for any more on this channel
        }
        StatefulRedisPubSubConnection<String, byte[]> c = connection;
        if (last && c != null && !closed && c.isOpen()) {
            kind.unsubscribe(c.async(), channel); // best effort: a stray message for it finds no listener
        }
    }

    private StatefulRedisPubSubConnection<String, byte[]> connection() {
        StatefulRedisPubSubConnection<String, byte[]> c = connection;
        if (c != null) {
            return c;
        }
        synchronized (this) {
            if (closed) {
                throw new RedkitException("pub/sub used after close; not executed", Outcome.NOT_EXECUTED, null);
            }
            if (connection == null) {
                StatefulRedisPubSubConnection<String, byte[]> opened = connector.get();
                opened.addListener(new RedisPubSubAdapter<>() {
                    @Override
                    public void message(String channel, byte[] message) {
                        if (kind == Kind.CLASSIC) {
                            deliver(channel, message);
                        }
                    }

                    @Override
                    public void subscribed(String channel, long count) {
                        if (kind == Kind.CLASSIC) {
                            DefaultRedisPubSub.this.subscribed(channel);
                        }
                    }

                    @Override
                    public void smessage(String channel, byte[] message) {
                        if (kind == Kind.SHARDED) {
                            deliver(channel, message);
                        }
                    }

                    @Override
                    public void ssubscribed(String channel, long count) {
                        if (kind == Kind.SHARDED) {
                            DefaultRedisPubSub.this.subscribed(channel);
                        }
                    }
                });
                opened.addListener(new RedisConnectionStateListener() {
                    @Override
                    public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                        dropped();
                    }

                    @Override
                    public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                        reconnected();
                    }
                });
                connection = opened;
            }
            return connection;
        }
    }

    private synchronized void dropped() {
        link = Link.DOWN;
        drops++;
        unconfirmed.clear();
    }

    /** Lettuce sends SUBSCRIBE for every channel it tracks now; the replies come in later turns of the loop. */
    private synchronized void reconnected() {
        if (link != Link.DOWN) {
            return;
        }
        link = Link.RESUBSCRIBING;
        unconfirmed.addAll(listeners.keySet());
        completeIfConfirmed();
    }

    private synchronized void subscribed(String channel) {
        unconfirmed.remove(channel);
        completeIfConfirmed();
    }

    /*
     * Once every channel is confirmed after a reconnect, the reconnect actions run, and only then is the link UP:
     * a listener that resynchronises (a near cache's flush) does so while isConnected() still says messages may
     * have been missed, so nothing is served from before the gap.
     */
    private void completeIfConfirmed() {
        if (link != Link.RESUBSCRIBING || !unconfirmed.isEmpty()) {
            return;
        }
        link = Link.RESYNCING;
        long drop = drops;
        PubSubSupport.resync(reconnectActions, log, "pub/sub reconnect action", () -> resynced(drop));
    }

    private synchronized void resynced(long drop) {
        if (link == Link.RESYNCING && drops == drop) {
            link = Link.UP;
        }
    }

    private void deliver(String channel, byte[] message) {
        List<Listener> forChannel = listeners.get(channel);
        if (forChannel == null) {
            return;
        }
        for (Listener l : forChannel) {
            PubSubSupport.runQuietly(() -> l.onMessage(channel, message), log, "pub/sub listener on '" + channel + "'");
        }
    }

    /** Closes the subscriber connection, if it was ever opened. */
    @Override
    public void close() {
        StatefulConnection<?, ?> opened;
        synchronized (this) {
            closed = true;
            opened = connection;
        }
        // Outside the lock: Lettuce's close waits for the event loop, whose disconnect events take this lock.
        if (opened != null) {
            opened.close();
        }
    }
}
