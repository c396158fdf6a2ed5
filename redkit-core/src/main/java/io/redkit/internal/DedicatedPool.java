package io.redkit.internal;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import io.lettuce.core.api.StatefulConnection;
import io.redkit.DedicatedConnection;
import io.redkit.DedicatedPoolConfig;
import io.redkit.Outcome;
import io.redkit.PoolExhaustedException;
import io.redkit.RedisOps;
import io.redkit.RedkitException;

/**
 * A bounded pool of dedicated connections with a wait. Written here rather than taken from Lettuce because
 * Lettuce's {@code BoundedAsyncPool} fails at once when exhausted (it has no wait), and commons-pool2 would be a
 * dependency for forty lines: a fair semaphore bounds the size and orders the waiters, a deque keeps idle ones.
 */
public final class DedicatedPool implements AutoCloseable {

    private final DedicatedPoolConfig config;
    private final LettuceConnector connector;
    private final Function<Lease, RedisOps> opsFactory;
    private final RedkitMetrics metrics;
    private final Semaphore permits;
    private final Deque<StatefulConnection<String, byte[]>> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean closed;

    /** Creates an empty pool; connections open on demand. */
    public DedicatedPool(DedicatedPoolConfig config, LettuceConnector connector, Function<Lease, RedisOps> opsFactory,
            RedkitMetrics metrics) {
        this.config = config;
        this.connector = connector;
        this.opsFactory = opsFactory;
        this.metrics = metrics;
        this.permits = new Semaphore(config.maxSize(), true);
        metrics.poolGauge("max", "the most dedicated connections", config::maxSize);
        metrics.poolGauge("active", "dedicated connections in use", () -> config.maxSize() - permits.availablePermits());
        metrics.poolGauge("idle", "dedicated connections open and unused", idle::size);
        metrics.poolGauge("pending", "callers waiting for a dedicated connection", permits::getQueueLength);
    }

    /** Takes a connection, waiting up to the pool wait; throws {@link PoolExhaustedException} after it. */
    public DedicatedConnection acquire() {
        if (closed) {
            throw new RedkitException("dedicated pool is closed", Outcome.NOT_EXECUTED, null);
        }
        long start = System.nanoTime();
        boolean got;
        try {
            got = permits.tryAcquire(config.maxWait().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedkitException("interrupted while waiting for a dedicated connection", Outcome.NOT_EXECUTED, e);
        }
        metrics.poolWait(System.nanoTime() - start, !got);
        if (!got) {
            throw new PoolExhaustedException(config.maxSize(), config.maxWait());
        }
        try {
            StatefulConnection<String, byte[]> connection = idle.pollFirst();
            while (connection != null && !connection.isOpen()) {
                connection.closeAsync();
                connection = idle.pollFirst();
            }
            if (connection == null) {
                connection = connector.connect();
            }
            return new Lease(connection);
        } catch (RuntimeException e) {
            permits.release();
            throw ExceptionTranslator.translate("dedicated connect", e, connector.config().connectTimeout());
        }
    }

    private void giveBack(StatefulConnection<String, byte[]> connection, boolean healthy) {
        try {
            if (!closed && healthy && connection.isOpen() && idle.size() < config.maxIdle()) {
                idle.addFirst(connection);
            } else {
                connection.closeAsync();
            }
        } finally {
            permits.release();
        }
    }

    /** Closes idle connections; leased ones close when given back. */
    @Override
    public void close() {
        closed = true;
        StatefulConnection<String, byte[]> c;
        while ((c = idle.pollFirst()) != null) {
            c.close();
        }
    }

    /** One borrowed connection. */
    public final class Lease implements DedicatedConnection {
        private final StatefulConnection<String, byte[]> connection;
        private final AtomicBoolean returned = new AtomicBoolean();
        private volatile boolean healthy = true;
        private final RedisOps ops;

        private Lease(StatefulConnection<String, byte[]> connection) {
            this.connection = connection;
            this.ops = opsFactory.apply(this);
        }

        /** The Lettuce connection, for the executor; fails once the lease is returned. */
        public StatefulConnection<String, byte[]> connection() {
            if (returned.get()) {
                throw new IllegalStateException("this dedicated connection was already given back to the pool");
            }
            return connection;
        }

        /** Marks the connection unfit for reuse (a command timed out on it). */
        public void markUnhealthy() {
            healthy = false;
        }

        @Override
        public RedisOps ops() {
            connection();
            return ops;
        }

        @Override
        public void close() {
            if (returned.compareAndSet(false, true)) {
                giveBack(connection, healthy);
            }
        }
    }
}
