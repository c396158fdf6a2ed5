package io.redkit.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.redkit.InvalidationListener;
import io.redkit.RedisOps;
import io.redkit.TrackedReads;
import io.redkit.TrackingRefusedException;

/**
 * A connection of its own with {@code CLIENT TRACKING ON} (RESP3: invalidations arrive as pushes on it). Tracking
 * belongs to a socket, so it is turned on again, from the event loop, each time the connection becomes active;
 * {@link #tracking()} is false from the moment the socket drops until the server has confirmed it on the new one,
 * and the listener hears a reset at both ends of that gap.
 *
 * <p>Why by hand: Lettuce's {@code ClientSideCaching} keeps a bare map, turns tracking on once and does not say
 * when a reconnect lost it; a cache must know exactly when what it read stopped being watched.
 */
public final class TrackedConnection implements TrackedReads {

    private static final Logger log = LoggerFactory.getLogger(TrackedConnection.class);

    private final StatefulRedisConnection<String, byte[]> connection;
    private final RedisOps ops;
    private final TrackingArgs args;
    private final InvalidationListener listener;
    private final String describe;
    private final boolean owned;
    // Bumped by every drop: a confirmation of tracking on an earlier socket must not mark the new one as tracked.
    private final AtomicLong socket = new AtomicLong();
    private final PushListener pushes = this::pushed;
    private final RedisConnectionStateListener states = new RedisConnectionStateListener() {
        @Override
        public void onRedisConnected(RedisChannelHandler<?, ?> handler, java.net.SocketAddress address) {
            enable();
        }

        @Override
        public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
            lost();
        }
    };
    private volatile boolean tracking;
    private volatile CompletableFuture<String> first;

    private TrackedConnection(StatefulRedisConnection<String, byte[]> connection, RedisOps ops, TrackingArgs args,
            InvalidationListener listener, String describe, boolean owned) {
        this.connection = connection;
        this.ops = ops;
        this.args = args;
        this.listener = listener;
        this.describe = describe;
        this.owned = owned;
    }

    /**
     * Turns tracking on for {@code connection} and waits up to {@code wait} for the server's answer; closes the
     * connection and throws when the server refuses.
     *
     * @param prefixes empty: the server tracks the keys read here; otherwise broadcast mode, every key starting with
     *     one of them
     * @throws TrackingRefusedException with the server's answer when it refuses
     */
    public static TrackedConnection open(StatefulRedisConnection<String, byte[]> connection,
            Function<StatefulRedisConnection<String, byte[]>, RedisOps> opsOf, List<String> prefixes,
            InvalidationListener listener, Duration wait) {
        TrackedConnection tracked = attach(connection, opsOf, prefixes, listener, true);
        try {
            tracked.confirmed().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return tracked;
        } catch (ExecutionException | TimeoutException | InterruptedException | RuntimeException e) {
            tracked.close();
            throw refused(prefixes, e, wait);
        }
    }

    /**
     * Adds tracking to {@code connection} and sends {@code CLIENT TRACKING ON} without waiting ({@link #confirmed()}
     * tells when it is on); when {@code owned}, {@link #close()} closes the connection, otherwise it only takes the
     * listeners off (a Cluster node connection, which belongs to its Cluster connection).
     */
    static TrackedConnection attach(StatefulRedisConnection<String, byte[]> connection,
            Function<StatefulRedisConnection<String, byte[]>, RedisOps> opsOf, List<String> prefixes,
            InvalidationListener listener, boolean owned) {
        TrackingArgs args = TrackingArgs.Builder.enabled();
        if (!prefixes.isEmpty()) {
            args.bcast().prefixes(prefixes.toArray(String[]::new));
        }
        TrackedConnection tracked = new TrackedConnection(connection, opsOf.apply(connection), args, listener,
                describe(prefixes), owned);
        connection.addListener(tracked.pushes);
        connection.addListener(tracked.states);
        tracked.first = resp2(connection) ? CompletableFuture.failedFuture(new UnsupportedOperationException(
                "the connection speaks RESP2 (the server or a proxy refused HELLO 3): invalidations would need a"
                        + " REDIRECT to a subscriber connection, which redkit does not offer"))
                : tracked.enable();
        return tracked;
    }

    /*
     * Over RESP2 the server accepts CLIENT TRACKING ON without REDIRECT but has no way to push an invalidation: the
     * copies would never be dropped. Every server with CLIENT TRACKING speaks RESP3 (both came with Redis 6), so a
     * RESP2 connection here means a proxy or a server whose HELLO is disabled.
     */
    private static boolean resp2(StatefulRedisConnection<String, byte[]> connection) {
        return connection instanceof StatefulRedisConnectionImpl<String, byte[]> impl
                && impl.getConnectionState().getNegotiatedProtocolVersion() != ProtocolVersion.RESP3;
    }

    /** The server's answer to the first {@code CLIENT TRACKING ON}. */
    CompletableFuture<String> confirmed() {
        return first;
    }

    private static String describe(List<String> prefixes) {
        return prefixes.isEmpty() ? "CLIENT TRACKING ON" : "CLIENT TRACKING ON BCAST PREFIX " + prefixes;
    }

    /** What a failure to turn tracking on is reported as: the server's answer when it gave one. */
    static TrackingRefusedException refused(List<String> prefixes, Throwable failure, Duration wait) {
        String describe = describe(prefixes);
        if (failure instanceof ExecutionException e) {
            Throwable answer = e.getCause() != null ? e.getCause() : e;
            return new TrackingRefusedException("the server refused " + describe + ": " + answer.getMessage(), answer);
        }
        if (failure instanceof TimeoutException) {
            return new TrackingRefusedException("no answer to " + describe + " in " + wait, failure);
        }
        if (failure instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new TrackingRefusedException("tracking not turned on: " + failure, failure);
    }

    private CompletableFuture<String> enable() {
        long current = socket.get();
        CompletableFuture<String> answer;
        try {
            answer = connection.async().clientTracking(args).toCompletableFuture();
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.whenComplete((ok, failure) -> {
            if (failure != null) {
                log.warn("near cache: {} failed ({}); what is read meanwhile is not kept", describe, failure.toString());
            } else if (socket.get() == current) {
                // Reset first: a read marked before this point may have gone out ahead of the command.
                listener.reset("tracking on");
                tracking = true;
            }
        });
    }

    private void lost() {
        socket.incrementAndGet();
        tracking = false;
        listener.reset("connection lost: invalidations sent meanwhile are missed");
    }

    private void pushed(PushMessage message) {
        String type = message.getType();
        if ("invalidate".equals(type)) {
            List<Object> content = message.getContent(StringCodec.UTF8::decodeKey);
            Object keys = content.size() > 1 ? content.get(1) : null;
            if (keys instanceof List<?> list) {
                @SuppressWarnings("unchecked")
                List<String> named = (List<String>) list;
                listener.invalidated(named);
            } else {
                listener.reset("the server flushed its keys");
            }
        } else if ("tracking-redir-broken".equals(type)) {
            listener.reset("tracking redirection broken");
        }
    }

    @Override
    public boolean tracking() {
        return tracking && connection.isOpen();
    }

    @Override
    public CompletableFuture<Void> invalidationsDelivered() {
        try {
            return connection.async().ping().toCompletableFuture().thenApply(pong -> null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public Optional<byte[]> get(String key) {
        return ops.get(key);
    }

    @Override
    public CompletableFuture<Optional<byte[]>> getAsync(String key) {
        return ops.getAsync(key);
    }

    @Override
    public CompletableFuture<Optional<java.time.Duration>> ttlAsync(String key) {
        return ops.ttlAsync(key);
    }

    @Override
    public List<Optional<byte[]>> mget(List<String> keys) {
        return ops.mget(keys);
    }

    @Override
    public void close() {
        tracking = false;
        connection.removeListener(states);
        connection.removeListener(pushes);
        if (owned) {
            connection.close();
        }
    }

    @Override
    public String toString() {
        return "TrackedConnection[" + describe + ", tracking=" + tracking + "]";
    }
}
