package io.redkit.internal;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.redkit.Outcome;
import io.redkit.RedkitException;
import io.redkit.RedkitTimer;

/**
 * Sharded pub/sub (SSUBSCRIBE, Redis 7) on Cluster. A shard channel lives in the hash slot of its name, and only
 * the shard that owns the slot carries its messages, so a subscription must sit on that shard's master and must
 * follow the slot when it moves.
 *
 * <p>Written here because Lettuce (7.7) does neither: a Cluster pub/sub connection sends SSUBSCRIBE to its default
 * node, whichever slots that node owns, and when a failover or a resharding moves the slot, the server ends the
 * subscription with an unsolicited SUNSUBSCRIBE that nobody answers. So each channel is subscribed on the node
 * connection of its slot's master, and {@link #reconcile} moves it whenever the owner changes (on the server's
 * SUNSUBSCRIBE, on a dropped node connection, and on a 200 ms tick that acts on what is unconfirmed). After a
 * node connection reconnects, each of its channels is sent again on its own: Lettuce's own re-subscription is one
 * SSUBSCRIBE for all of them, which the server refuses (CROSSSLOT) when they span slots.
 *
 * <p>A subscription is left where it is while its node stays in the owning shard: after a graceful failover
 * the server ends it on the demoted master, and Lettuce's slot map may still name that node when it is sent
 * again; a replica accepts SSUBSCRIBE for its master's slots and forwards the shard's messages, so moving it
 * once more to the new master would only open another gap.
 *
 * <p>Whatever ended a confirmed subscription (a drop, a move) may have lost messages: {@link #isConnected()} is
 * false from then on, and once every channel is confirmed again the reconnect actions run, then it is true.
 * Messages are taken only from the node a channel is subscribed on now, so a late re-subscription on the old
 * owner (now a replica of the same shard, which also forwards the shard's messages) delivers nothing twice.
 */
public final class ClusterShardedPubSub implements PubSubSeam {

    private static final Logger log = LoggerFactory.getLogger(ClusterShardedPubSub.class);
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long REFRESH_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Supplier<StatefulRedisClusterPubSubConnection<String, byte[]>> connector;
    private final Runnable refreshTopology;
    private final RedkitTimer timer;
    private final Duration timeout;
    private final Map<String, ShardChannel> channels = new ConcurrentHashMap<>();
    private final ResyncGate gate = new ResyncGate(log);
    private final ShardNodes nodes = new ShardNodes(new ShardNodes.Events() {
        @Override
        public void message(String nodeId, String channel, byte[] message) {
            deliver(nodeId, channel, message);
        }

        @Override
        public boolean confirmed(String channel, String nodeId) {
            return ClusterShardedPubSub.this.confirmed(channel, nodeId);
        }

        @Override
        public void ended(String channel, String nodeId) {
            ClusterShardedPubSub.this.ended(channel, nodeId);
        }

        @Override
        public void dropped(String nodeId) {
            ClusterShardedPubSub.this.dropped(nodeId);
        }

        @Override
        public void reconnected(String nodeId) {
            ClusterShardedPubSub.this.reconnected(nodeId);
        }
    });
    private volatile StatefulRedisClusterPubSubConnection<String, byte[]> connection;
    private volatile boolean closed;
    private long refreshedAt = System.nanoTime() - REFRESH_EVERY_NANOS;
    private RedkitTimer.Scheduled tick;

    /**
     * Creates the seam; {@code connector} opens the Cluster pub/sub connection when first needed, and
     * {@code refreshTopology} asks Lettuce to reload the slot map without waiting for it.
     */
    public ClusterShardedPubSub(Supplier<StatefulRedisClusterPubSubConnection<String, byte[]>> connector,
            Runnable refreshTopology, RedkitTimer timer, Duration timeout) {
        this.connector = connector;
        this.refreshTopology = refreshTopology;
        this.timer = timer;
        this.timeout = timeout;
    }

    @Override
    public Subscription subscribe(String channel, Listener listener) {
        PubSubSupport.checkSubscription(channel, listener);
        connection();
        ShardChannel ch;
        synchronized (this) {
            ch = channels.computeIfAbsent(channel, ShardChannel::new);
            ch.listeners.add(listener);
        }
        try {
            synchronized (this) {
                reconcile();
            }
            awaitConfirmed(ch);
        } catch (RuntimeException e) {
            unsubscribe(channel, listener);
            throw e;
        }
        return PubSubSupport.subscription(channel, () -> unsubscribe(channel, listener));
    }

    @Override
    public AutoCloseable onReconnect(Runnable action) {
        Objects.requireNonNull(action, "action");
        connection();
        return gate.onReconnect(action);
    }

    @Override
    public boolean isConnected() {
        if (closed || connection == null || !gate.isWhole()) {
            return false;
        }
        for (ShardChannel ch : channels.values()) {
            if (!ch.confirmed || !nodes.isOpen(ch.node)) {
                return false;
            }
        }
        return true;
    }

    private synchronized void unsubscribe(String channel, Listener listener) {
        ShardChannel ch = channels.get(channel);
        if (ch == null || !ch.listeners.remove(listener) || !ch.listeners.isEmpty()) {
            return;
        }
        channels.remove(channel);
        if (ch.node != null) {
            nodes.leave(ch.node, channel);
        }
        gate.closeIfConfirmed(channels.values()); // nothing to wait for any more on this channel
    }

    private StatefulRedisClusterPubSubConnection<String, byte[]> connection() {
        StatefulRedisClusterPubSubConnection<String, byte[]> c = connection;
        if (c != null && !closed) {
            return c;
        }
        synchronized (this) {
            if (closed) {
                throw new RedkitException("sharded pub/sub used after close; not executed", Outcome.NOT_EXECUTED,
                        null);
            }
            if (connection == null) {
                connection = connector.get();
                scheduleTick();
            }
            return connection;
        }
    }

    /*
     * Sends SSUBSCRIBE for every channel that is not on its slot's master, as far as Lettuce's slot map knows.
     * A channel whose SSUBSCRIBE went unanswered for a whole timeout (a node that is down for good) is sent
     * again, and the slot map is reloaded, at most once a second, so that a failover is found without waiting
     * for Lettuce's periodic refresh.
     */
    private void reconcile() {
        StatefulRedisClusterPubSubConnection<String, byte[]> c = connection;
        if (closed || c == null) {
            return;
        }
        long now = System.nanoTime();
        boolean refresh = false;
        for (ShardChannel ch : channels.values()) {
            RedisClusterNode owner = c.getPartitions().getMasterBySlot(ch.slot);
            if (owner == null) {
                refresh = true;
                continue;
            }
            String id = owner.getNodeId();
            if (id.equals(ch.node)) {
                if (!ch.confirmed && now - ch.sentAt > timeout.toNanos()) {
                    refresh = true;
                    send(c, ch, id, now);
                }
                continue;
            }
            if (ch.confirmed && isReplicaOf(c.getPartitions(), ch.node, id)) {
                continue; // it forwards the shard's messages too, so nothing is missed there
            }
            if (ch.node != null) {
                nodes.leave(ch.node, ch.name); // the slot moved away from it
            }
            if (ch.confirmed) {
                gate.open();
            }
            send(c, ch, id, now);
        }
        if (refresh) {
            refreshSoon();
        }
        gate.closeIfConfirmed(channels.values());
    }

    private static boolean isReplicaOf(Partitions partitions, String nodeId, String masterId) {
        RedisClusterNode node = nodeId == null ? null : partitions.getPartitionByNodeId(nodeId);
        return node != null && masterId.equals(node.getSlaveOf());
    }

    private void send(StatefulRedisClusterPubSubConnection<String, byte[]> c, ShardChannel ch, String nodeId, long now) {
        ch.node = nodeId;
        ch.confirmed = false;
        ch.sentAt = now;
        CompletableFuture<StatefulRedisPubSubConnection<String, byte[]>> opening;
        try {
            opening = c.getConnectionAsync(nodeId);
        } catch (RuntimeException e) {
            failed(ch, nodeId, e); // a node id the slot map dropped between two reads of it
            return;
        }
        opening
                .thenCompose(node -> {
                    nodes.watch(nodeId, node);
                    if (!isCurrent(ch, nodeId)) {
                        return CompletableFuture.completedFuture(null); // unsubscribed or moved while it opened
                    }
                    return node.async().ssubscribe(ch.name).toCompletableFuture();
                })
                .whenComplete((ignored, error) -> {
                    if (error == null) {
                        confirmed(ch.name, nodeId);
                    } else {
                        failed(ch, nodeId, error);
                    }
                });
    }

    private boolean isCurrent(ShardChannel ch, String nodeId) {
        return channels.get(ch.name) == ch && nodeId.equals(ch.node);
    }

    /** Whether the channel is wanted on that node: a confirmation from anywhere else is stale. */
    private synchronized boolean confirmed(String channel, String nodeId) {
        ShardChannel ch = channels.get(channel);
        if (ch == null || !nodeId.equals(ch.node)) {
            return false;
        }
        ch.confirmed = true;
        ch.lastError = null;
        ch.firstConfirmed.complete(null);
        gate.closeIfConfirmed(channels.values());
        return true;
    }

    /*
     * Lettuce re-subscribes a reconnected node's shard channels in one SSUBSCRIBE, which the server refuses
     * (CROSSSLOT) when they span slots. So each of them is sent again, one per command, by the next reconcile;
     * SSUBSCRIBE is idempotent, so a channel Lettuce did get back is merely confirmed twice.
     */
    private synchronized void reconnected(String nodeId) {
        long due = System.nanoTime() - timeout.toNanos() - 1;
        for (ShardChannel ch : channels.values()) {
            if (nodeId.equals(ch.node) && !ch.confirmed) {
                ch.sentAt = due;
            }
        }
    }

    private synchronized void failed(ShardChannel ch, String nodeId, Throwable error) {
        if (ch.confirmed || !nodeId.equals(ch.node)) {
            return;
        }
        ch.node = null; // sent again by the next reconcile, to whichever node owns the slot by then
        ch.lastError = error;
        refreshSoon(); // a MOVED reply means the slot map is stale
    }

    /** Reloads the slot map, at most once a second whatever asks: K channels ending at once ask K times. */
    private void refreshSoon() {
        long now = System.nanoTime();
        if (now - refreshedAt > REFRESH_EVERY_NANOS) {
            refreshedAt = now;
            refreshTopology.run();
        }
    }

    /** The server ended a subscription: its slot moved (failover, resharding), or it was asked to. */
    private synchronized void ended(String channel, String nodeId) {
        ShardChannel ch = channels.get(channel);
        if (ch == null || !nodeId.equals(ch.node)) {
            return;
        }
        if (ch.confirmed) {
            gate.open();
        }
        ch.confirmed = false;
        ch.node = null;
        refreshSoon();
    }

    /** A node connection dropped: its channels miss messages until Lettuce re-subscribes them, or they move. */
    private synchronized void dropped(String nodeId) {
        long now = System.nanoTime();
        for (ShardChannel ch : channels.values()) {
            if (nodeId.equals(ch.node)) {
                if (ch.confirmed) {
                    gate.open();
                }
                ch.confirmed = false;
                ch.sentAt = now;
            }
        }
    }

    private void deliver(String nodeId, String channel, byte[] message) {
        ShardChannel ch = channels.get(channel);
        if (ch == null || !nodeId.equals(ch.node)) {
            return;
        }
        for (Listener l : ch.listeners) {
            PubSubSupport.runQuietly(() -> l.onMessage(channel, message), log,
                    "sharded pub/sub listener on '" + channel + "'");
        }
    }

    private void scheduleTick() {
        try {
            tick = timer.schedule(this::onTick, TICK_NANOS);
        } catch (RejectedExecutionException e) {
            // the client is closing
        }
    }

    private void onTick() {
        try {
            synchronized (this) {
                if (closed) {
                    return;
                }
                reconcile();
            }
        } catch (RuntimeException e) {
            log.warn("sharded pub/sub: reconciling subscriptions failed; trying again at the next tick", e);
        }
        scheduleTick();
    }

    private void awaitConfirmed(ShardChannel ch) {
        PubSubSupport.await("SSUBSCRIBE " + ch.name, ch.firstConfirmed, timeout, () -> {
            synchronized (this) {
                return ch.lastError;
            }
        });
    }

    /** Closes the Cluster pub/sub connection and its node connections, if they were ever opened. */
    @Override
    public void close() {
        StatefulConnection<?, ?> opened;
        synchronized (this) {
            closed = true;
            if (tick != null) {
                tick.cancel();
            }
            opened = connection;
        }
        // Outside the lock: Lettuce's close waits for the event loop, whose disconnect events take this lock.
        if (opened != null) {
            opened.close();
        }
    }
}
