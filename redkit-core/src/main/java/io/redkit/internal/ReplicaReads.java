package io.redkit.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.api.StatefulConnection;
import io.redkit.Outcome;
import io.redkit.RedisOps;
import io.redkit.RedisReads;
import io.redkit.RedisUnavailableException;

/**
 * Reads from replicas on a connection of their own. It is opened when first asked for; when that fails (Redis is
 * down while a cache is built), the cache is still built: reads fail at once as not executed, and the connection
 * is tried again in the background, never on a reader's thread, until it opens.
 */
public final class ReplicaReads implements RedisReads, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaReads.class);

    private final Supplier<StatefulConnection<String, byte[]>> connect;
    private final Function<StatefulConnection<String, byte[]>, RedisOps> opsOf;
    private final AtomicBoolean connecting = new AtomicBoolean();
    private volatile StatefulConnection<String, byte[]> connection;
    private volatile RedisOps ops;
    private volatile boolean closed;

    /** Tries to connect once now; {@code connect} throws redkit's exceptions. */
    public ReplicaReads(Supplier<StatefulConnection<String, byte[]>> connect,
            Function<StatefulConnection<String, byte[]>, RedisOps> opsOf) {
        this.connect = connect;
        this.opsOf = opsOf;
        tryConnect();
    }

    @Override
    public Optional<byte[]> get(String key) {
        return ops().get(key);
    }

    @Override
    public CompletableFuture<Optional<byte[]>> getAsync(String key) {
        try {
            return ops().getAsync(key);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Optional<Duration>> ttlAsync(String key) {
        try {
            return ops().ttlAsync(key);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public List<Optional<byte[]>> mget(List<String> keys) {
        return ops().mget(keys);
    }

    private RedisOps ops() {
        RedisOps current = ops;
        if (current != null) {
            return current;
        }
        if (!closed && connecting.compareAndSet(false, true)) {
            ForkJoinPool.commonPool().execute(() -> {
                try {
                    tryConnect();
                } finally {
                    connecting.set(false);
                }
            });
        }
        throw new RedisUnavailableException("replica reads not connected yet; not executed", Outcome.NOT_EXECUTED,
                null);
    }

    private synchronized void tryConnect() {
        if (ops != null || closed) {
            return;
        }
        try {
            connection = connect.get();
            ops = opsOf.apply(connection);
        } catch (RuntimeException e) {
            log.warn("replica reads: cannot connect yet, will try again: {}", e.getMessage());
        }
    }

    /** Closes the connection, if one was opened. */
    @Override
    public synchronized void close() {
        closed = true;
        if (connection != null) {
            connection.close();
        }
    }
}
