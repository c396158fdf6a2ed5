package io.redkit.internal;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.redkit.Outcome;
import io.redkit.RedisPubSub;
import io.redkit.RedkitException;

/**
 * One subscriber connection for the whole process, opened on first use. Channels are subscribed on the server
 * while at least one listener wants them; every listener of a channel gets every message.
 *
 * <p>After a drop, Lettuce reconnects and sends SUBSCRIBE again. Until the server has confirmed every channel,
 * messages are still being missed: {@link #isConnected()} stays false and the reconnect actions wait, so that a
 * listener that resynchronises (flushes a near cache) does so after the gap has closed, not inside it.
 */
public final class DefaultRedisPubSub implements RedisPubSub, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DefaultRedisPubSub.class);

    private final Supplier<StatefulRedisPubSubConnection<String, byte[]>> connector;
    private final Duration timeout;
    private final Map<String, List<Listener>> listeners = new ConcurrentHashMap<>();
    private final List<Runnable> reconnectActions = new CopyOnWriteArrayList<>();
    private final Set<String> unconfirmed = ConcurrentHashMap.newKeySet();
    private volatile StatefulRedisPubSubConnection<String, byte[]> connection;
    /** Changed on connection events only, under this object's lock; read without it. */
    private volatile Link link = Link.UP;
    private volatile boolean closed;

    /** Where the subscriber connection stands; messages are missed unless UP. */
    private enum Link {
        /** Connected, every subscription confirmed. */
        UP,
        /** Dropped; Lettuce reconnects. */
        DOWN,
        /** Reconnected; waiting for the server to confirm every subscription again. */
        RESUBSCRIBING
    }

    /** Creates the seam; {@code connector} opens the subscriber connection when first needed. */
    public DefaultRedisPubSub(Supplier<StatefulRedisPubSubConnection<String, byte[]>> connector, Duration timeout) {
        this.connector = connector;
        this.timeout = timeout;
    }

    @Override
    public Subscription subscribe(String channel, Listener listener) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(listener, "listener");
        if (channel.isEmpty()) {
            throw new IllegalArgumentException("channel must not be empty");
        }
        StatefulRedisPubSubConnection<String, byte[]> c = connection();
        List<Listener> forChannel = listeners.computeIfAbsent(channel, k -> new CopyOnWriteArrayList<>());
        forChannel.add(listener);
        // SUBSCRIBE is idempotent on the server, so a second listener of a channel may send it again safely.
        try {
            await("SUBSCRIBE " + channel, c.async().subscribe(channel).toCompletableFuture());
        } catch (RuntimeException e) {
            // Lettuce tracks a channel only once the server confirmed it: a listener left here would wait for a
            // re-subscription that never comes, and hold the link RESUBSCRIBING for good.
            unsubscribe(channel, listener);
            throw e;
        }
        return new Subscription() {
            private volatile boolean done;

            @Override
            public String channel() {
                return channel;
            }

            @Override
            public void close() {
                if (done) {
                    return;
                }
                done = true;
                unsubscribe(channel, listener);
            }
        };
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
            c.async().unsubscribe(channel); // best effort: a stray message for it finds no listener
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
                        deliver(channel, message);
                    }

                    @Override
                    public void subscribed(String channel, long count) {
                        DefaultRedisPubSub.this.subscribed(channel);
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
        reconnectActions.forEach(DefaultRedisPubSub::runQuietly);
        link = Link.UP;
    }

    private void deliver(String channel, byte[] message) {
        List<Listener> forChannel = listeners.get(channel);
        if (forChannel == null) {
            return;
        }
        for (Listener l : forChannel) {
            try {
                l.onMessage(channel, message);
            } catch (RuntimeException e) {
                log.warn("pub/sub listener on '{}' failed", channel, e);
            }
        }
    }

    private static void runQuietly(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            log.warn("pub/sub reconnect action failed", e);
        }
    }

    private void await(String command, java.util.concurrent.CompletableFuture<?> future) {
        try {
            future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedkitException(command + " interrupted; outcome UNKNOWN", Outcome.UNKNOWN, e);
        } catch (TimeoutException e) {
            throw ExceptionTranslator.translate(command, e, timeout);
        } catch (ExecutionException e) {
            throw ExceptionTranslator.translate(command, e.getCause(), timeout);
        }
    }

    /** Closes the subscriber connection, if it was ever opened. */
    @Override
    public synchronized void close() {
        closed = true;
        if (connection != null) {
            connection.close();
        }
    }
}
