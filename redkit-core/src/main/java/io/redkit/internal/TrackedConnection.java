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
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.redkit.InvalidationListener;
import io.redkit.RedisOps;
import io.redkit.TrackedReads;
import io.redkit.TrackingRefusedException;

/**
 * A connection of its own with {@code CLIENT TRACKING ON}. Over RESP3 invalidations arrive as pushes on it; over RESP2
 * (a server or proxy that refuses {@code HELLO 3}) they are redirected to a subscribed connection of their own
 * ({@link InvalidationRedirect}). Tracking belongs to a socket, so it is turned on again, from the event loop, each
 * time the connection becomes active, and over RESP2 also each time the redirect connection is replaced (its id
 * changes); {@link #tracking()} is false from the moment either socket drops until the server has confirmed tracking
 * on the new one, and the listener hears a reset at both ends of that gap.
 *
 * <p>Why by hand: Lettuce's {@code ClientSideCaching} keeps a bare map, turns tracking on once and does not say
 * when a reconnect lost it; a cache must know exactly when what it read stopped being watched.
 */
public final class TrackedConnection implements TrackedReads {

    private static final Logger log = LoggerFactory.getLogger(TrackedConnection.class);

    private final StatefulRedisConnection<String, byte[]> connection;
    private final RedisOps ops;
    private final List<String> prefixes;
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
    // RESP2 only: opens a redirect connection; null on RESP3.
    private final Supplier<InvalidationRedirect> redirects;
    // RESP2 only, under this: the redirect connection in use (null once it dropped), and the enabling sent for the
    // socket generation enabledFor, which a second trigger in the same generation joins instead of sending again.
    private InvalidationRedirect redirect;
    private long enabledFor = -1;
    private CompletableFuture<String> enabling;
    private boolean closed;

    private TrackedConnection(StatefulRedisConnection<String, byte[]> connection, RedisOps ops, List<String> prefixes,
            InvalidationListener listener, String describe, boolean owned, Redirects redirects) {
        this.connection = connection;
        this.ops = ops;
        this.prefixes = prefixes;
        this.listener = listener;
        this.describe = describe;
        this.owned = owned;
        this.redirects = redirects == null ? null : () -> new InvalidationRedirect(redirects::connect, listener,
                this::redirectLost);
    }

    /** Opens the pub/sub connections that RESP2 invalidations are redirected to, to the tracked connection's server. */
    @FunctionalInterface
    public interface Redirects {
        CompletableFuture<StatefulRedisPubSubConnection<String, List<String>>> connect(
                RedisCodec<String, List<String>> codec);
    }

    /**
     * Turns tracking on for {@code connection} and waits up to {@code wait} for the server's answer; closes the
     * connection and throws when the server refuses.
     *
     * @param prefixes empty: the server tracks the keys read here; otherwise broadcast mode, every key starting with
     *     one of them
     * @param redirects where invalidations go when {@code connection} speaks RESP2
     * @throws TrackingRefusedException with the server's answer when it refuses
     */
    public static TrackedConnection open(StatefulRedisConnection<String, byte[]> connection,
            Function<StatefulRedisConnection<String, byte[]>, RedisOps> opsOf, List<String> prefixes,
            InvalidationListener listener, Duration wait, Redirects redirects) {
        TrackedConnection tracked = attach(connection, opsOf, prefixes, listener, true, redirects);
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
     *
     * @param redirects where invalidations go when {@code connection} speaks RESP2 (on Cluster, to its master);
     *     null: a RESP2 connection is refused
     */
    static TrackedConnection attach(StatefulRedisConnection<String, byte[]> connection,
            Function<StatefulRedisConnection<String, byte[]>, RedisOps> opsOf, List<String> prefixes,
            InvalidationListener listener, boolean owned, Redirects redirects) {
        boolean resp2 = resp2(connection);
        TrackedConnection tracked = new TrackedConnection(connection, opsOf.apply(connection), prefixes, listener,
                describe(prefixes), owned, resp2 ? redirects : null);
        connection.addListener(tracked.pushes);
        connection.addListener(tracked.states);
        tracked.first = resp2 && redirects == null ? CompletableFuture.failedFuture(new UnsupportedOperationException(
                "the connection speaks RESP2 (the server or a proxy refused HELLO 3) and has nowhere to redirect"
                        + " invalidations to"))
                : tracked.enable();
        return tracked;
    }

    /*
     * Over RESP2 the server accepts CLIENT TRACKING ON without REDIRECT but has no way to push an invalidation: the
     * copies would never be dropped, so there they are sent to a subscribed connection (REDIRECT). Every server with
     * CLIENT TRACKING speaks RESP3 (both came with Redis 6), so a RESP2 connection here means a proxy or a server
     * whose HELLO is disabled.
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
        return redirects == null ? confirm(socket.get(), send(args(null))) : enableRedirected();
    }

    private TrackingArgs args(Long redirectTo) {
        TrackingArgs args = TrackingArgs.Builder.enabled();
        if (redirectTo != null) {
            args.redirect(redirectTo);
        }
        if (!prefixes.isEmpty()) {
            args.bcast().prefixes(prefixes.toArray(String[]::new));
        }
        return args;
    }

    private CompletableFuture<String> send(TrackingArgs args) {
        try {
            return connection.async().clientTracking(args).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /*
     * RESP2: each time, a new redirect connection, opened after the tracked connection's socket, is subscribed and
     * has told its id before tracking is sent to it. An older one's id could name another client: ids start again at
     * 1 when the server restarts, and its drop may not have been seen yet when the tracked connection is back. In
     * broadcast mode tracking is turned off first: the server refuses a prefix the connection already has, and it
     * still has them when only the redirect connection was replaced. Within one socket generation a second trigger (a
     * reconnect and the redirect's loss seen at once) joins the first: another OFF after a confirmed ON would stop
     * the tracking that ON confirmed.
     */
    private CompletableFuture<String> enableRedirected() {
        InvalidationRedirect previous;
        CompletableFuture<String> result;
        synchronized (this) {
            long current = socket.get();
            if (closed) {
                return CompletableFuture.failedFuture(new IllegalStateException("closed"));
            }
            if (enabling != null && enabledFor == current) {
                return enabling;
            }
            previous = redirect;
            redirect = redirects.get();
            enabledFor = current;
            enabling = confirm(current, redirect.id().thenCompose(this::redirectTo));
            result = enabling;
        }
        if (previous != null) {
            previous.close();
        }
        return result;
    }

    private CompletableFuture<String> redirectTo(long id) {
        if (!prefixes.isEmpty()) {
            send(TrackingArgs.Builder.enabled(false));
        }
        return send(args(id));
    }

    private void redirectLost(InvalidationRedirect lost) {
        synchronized (this) {
            if (redirect != lost) {
                return; // closed, or replaced
            }
            redirect = null;
        }
        lost("the invalidation connection was lost: invalidations sent meanwhile are missed");
        if (connection.isOpen()) {
            enable();
        }
    }

    private CompletableFuture<String> confirm(long current, CompletableFuture<String> answer) {
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
        lost("connection lost: invalidations sent meanwhile are missed");
    }

    private void lost(String why) {
        socket.incrementAndGet();
        tracking = false;
        listener.reset(why);
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
        if (redirects != null) {
            InvalidationRedirect current;
            synchronized (this) {
                current = redirect;
            }
            return current != null ? current.delivered()
                    : CompletableFuture.failedFuture(new IllegalStateException("the invalidation connection is down"));
        }
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
        InvalidationRedirect last;
        synchronized (this) {
            closed = true;
            last = redirect;
            redirect = null;
        }
        if (last != null) {
            last.close();
        }
        if (owned) {
            connection.close();
        }
    }

    @Override
    public String toString() {
        return "TrackedConnection[" + describe + ", tracking=" + tracking + "]";
    }
}
