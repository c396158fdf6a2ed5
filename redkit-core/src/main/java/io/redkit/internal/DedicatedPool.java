package io.redkit.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.redkit.DedicatedConnection;
import io.redkit.DedicatedPoolConfig;
import io.redkit.Outcome;
import io.redkit.PoolExhaustedException;
import io.redkit.RedisOps;
import io.redkit.RedisTimeoutException;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitException;
import io.redkit.ReplicaAck;
import io.redkit.Validate;

/**
 * A bounded pool of dedicated connections with a wait. Written here rather than taken from Lettuce because
 * Lettuce's {@code BoundedAsyncPool} fails at once when exhausted (it has no wait), and commons-pool2 would be a
 * dependency for forty lines: a fair semaphore bounds the size and orders the waiters, a deque keeps idle ones.
 */
public final class DedicatedPool implements AutoCloseable {

    /** The longest a wait for replicas may be given. */
    static final Duration MAX_REPLICA_WAIT = Duration.ofSeconds(60);

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
        public ReplicaAck awaitReplicas(Duration timeout, Collection<String> writtenKeys) {
            Validate.positive("timeout", timeout, MAX_REPLICA_WAIT);
            Objects.requireNonNull(writtenKeys, "writtenKeys");
            StatefulConnection<String, byte[]> c = connection();
            if (c instanceof StatefulRedisClusterConnection<String, byte[]> cluster) {
                return awaitClusterReplicas(cluster, timeout, writtenKeys,
                        master -> knownReplicas(cluster.getPartitions(), master));
            }
            int required;
            try {
                required = connector.sentinelReplicas();
            } catch (RuntimeException e) {
                throw ExceptionTranslator.translate("SENTINEL REPLICAS", e, connector.config().connectTimeout());
            }
            if (required == 0) {
                return new ReplicaAck(0, 0);
            }
            long acked = waitFor(((StatefulRedisConnection<String, byte[]>) c).async(), required, timeout);
            return new ReplicaAck(required, (int) Math.min(required, acked));
        }

        @Override
        public ReplicaAck awaitReplicas(int replicas, Duration timeout, Collection<String> writtenKeys) {
            if (replicas < 0) {
                throw new IllegalArgumentException("replicas must not be negative, was " + replicas);
            }
            Validate.positive("timeout", timeout, MAX_REPLICA_WAIT);
            Objects.requireNonNull(writtenKeys, "writtenKeys");
            StatefulConnection<String, byte[]> c = connection();
            if (replicas == 0) {
                return new ReplicaAck(0, 0);
            }
            if (c instanceof StatefulRedisClusterConnection<String, byte[]> cluster) {
                return awaitClusterReplicas(cluster, timeout, writtenKeys, master -> replicas);
            }
            long acked = waitFor(((StatefulRedisConnection<String, byte[]>) c).async(), replicas, timeout);
            return new ReplicaAck(replicas, (int) Math.min(replicas, acked));
        }

        @Override
        public Optional<byte[]> getWhereConfirmed(String key) {
            Objects.requireNonNull(key, "key");
            StatefulConnection<String, byte[]> c = connection();
            if (!(c instanceof StatefulRedisClusterConnection<String, byte[]> cluster)) {
                return ops.get(key);
            }
            RedisClusterNode master = cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
            if (master == null || master.getUri() == null) {
                return Optional.empty();
            }
            Duration deadline = connector.config().requestProfile().timeout();
            try {
                byte[] value = cluster.getConnection(master.getUri().getHost(), master.getUri().getPort()).async()
                        .get(key).get(deadline.toNanos(), TimeUnit.NANOSECONDS);
                return Optional.ofNullable(value);
            } catch (ExecutionException e) {
                String message = String.valueOf(e.getCause() == null ? null : e.getCause().getMessage());
                if (message.startsWith("MOVED") || message.startsWith("ASK")) {
                    return Optional.empty(); // the slot is no longer (only) there: the write went elsewhere
                }
                throw ExceptionTranslator.translate("GET", e.getCause(), deadline);
            } catch (TimeoutException e) {
                markUnhealthy();
                throw new RedisTimeoutException("GET", deadline, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedkitException("interrupted while reading " + key, Outcome.UNKNOWN, e);
            } catch (RuntimeException e) {
                throw ExceptionTranslator.translate("GET", e, deadline);
            }
        }

        // Each master of the written keys is waited for on this connection's own node connection to it: the one
        // the writes went through (Lettuce keys them by host and port), so WAIT counts exactly those writes.
        private ReplicaAck awaitClusterReplicas(StatefulRedisClusterConnection<String, byte[]> cluster,
                Duration timeout, Collection<String> writtenKeys, ToIntFunction<RedisClusterNode> replicasOf) {
            Partitions partitions = cluster.getPartitions();
            Set<RedisClusterNode> masters = new LinkedHashSet<>();
            for (String key : writtenKeys) {
                RedisClusterNode master = partitions.getMasterBySlot(SlotHash.getSlot(key));
                if (master == null || master.getUri() == null) {
                    throw new RedisUnavailableException("WAIT not sent: no master is known for the slot of " + key,
                            Outcome.NOT_EXECUTED, null);
                }
                masters.add(master);
            }
            int required = 0;
            int acknowledged = 0;
            for (RedisClusterNode master : masters) {
                int replicas = replicasOf.applyAsInt(master);
                if (replicas == 0) {
                    continue;
                }
                RedisClusterAsyncCommands<String, byte[]> node;
                try {
                    node = cluster.getConnection(master.getUri().getHost(), master.getUri().getPort()).async();
                } catch (RuntimeException e) {
                    throw ExceptionTranslator.translate("WAIT", e, connector.config().connectTimeout());
                }
                required += replicas;
                acknowledged += (int) Math.min(replicas, waitFor(node, replicas, timeout));
            }
            return new ReplicaAck(required, acknowledged);
        }

        /** The replicas of {@code master} the slot map knows and does not hold failing. */
        private static int knownReplicas(Partitions partitions, RedisClusterNode master) {
            int replicas = 0;
            for (RedisClusterNode node : partitions) {
                if (master.getNodeId().equals(node.getSlaveOf()) && !node.is(NodeFlag.FAIL)
                        && !node.is(NodeFlag.EVENTUAL_FAIL) && !node.is(NodeFlag.HANDSHAKE)
                        && !node.is(NodeFlag.NOADDR)) {
                    replicas++;
                }
            }
            return replicas;
        }

        private long waitFor(RedisClusterAsyncCommands<String, byte[]> commands, int replicas, Duration timeout) {
            // Lettuce's own command timeouts are off; this one lets the server answer its WAIT first.
            Duration deadline = timeout.plus(connector.config().requestProfile().timeout());
            try {
                return commands.waitForReplication(replicas, timeout.toMillis()).get(deadline.toNanos(),
                        TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                markUnhealthy(); // the server may still be blocked on it
                throw new RedisTimeoutException("WAIT", deadline, e);
            } catch (ExecutionException e) {
                markUnhealthy();
                throw ExceptionTranslator.translate("WAIT", e.getCause(), deadline);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                markUnhealthy();
                throw new RedkitException("interrupted while waiting for replicas", Outcome.UNKNOWN, e);
            }
        }

        @Override
        public void close() {
            if (returned.compareAndSet(false, true)) {
                giveBack(connection, healthy);
            }
        }
    }
}
