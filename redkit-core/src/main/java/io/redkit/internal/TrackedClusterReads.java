package io.redkit.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.redkit.InvalidationListener;
import io.redkit.Outcome;
import io.redkit.RedisCommandException;
import io.redkit.RedisOps;
import io.redkit.RedisUnavailableException;
import io.redkit.TrackedReads;

/**
 * Tracked reads on Cluster. Tracking belongs to a connection, and a key is tracked on the connection that read it,
 * so each read is sent by this class on the connection of the master that owns the key's slot, each of which has
 * tracking of its own ({@link TrackedConnection}, attached to the node connections of a Cluster connection opened
 * for these reads alone). Reads are tracked only while every master's connection has tracking confirmed. A
 * topology change (a failover, a slot moved) empties the near cache: a key read on one master and written on
 * another would never be invalidated. A read that lands on a master that no longer owns the slot ({@code MOVED})
 * fails as not executed and asks for a new view of the slots.
 */
public final class TrackedClusterReads implements TrackedReads {

    private final StatefulRedisClusterConnection<String, byte[]> cluster;
    private final Function<StatefulRedisConnection<String, byte[]>, RedisOps> opsOf;
    private final List<String> prefixes;
    private final InvalidationListener listener;
    private final Runnable refreshTopology;
    private final NodeRedirects redirects;
    private final Map<String, TrackedConnection> nodes = new ConcurrentHashMap<>();
    // The values of nodes, for tracking(), which a near cache asks on every hit: an array walk, no iterator.
    private volatile TrackedConnection[] attached = new TrackedConnection[0];
    private volatile boolean closed;

    private TrackedClusterReads(StatefulRedisClusterConnection<String, byte[]> cluster,
            Function<StatefulRedisConnection<String, byte[]>, RedisOps> opsOf, List<String> prefixes,
            InvalidationListener listener, Runnable refreshTopology, NodeRedirects redirects) {
        this.cluster = cluster;
        this.redirects = redirects;
        this.opsOf = opsOf;
        this.prefixes = prefixes;
        this.listener = listener;
        this.refreshTopology = refreshTopology;
    }

    /** Where a master's invalidations go when its connection speaks RESP2: a redirect connection to that master. */
    @FunctionalInterface
    public interface NodeRedirects {
        TrackedConnection.Redirects to(String host, int port);
    }

    /**
     * Turns tracking on for every master's connection of {@code cluster} and waits up to {@code wait} for their
     * answers; closes {@code cluster} and throws when one refuses.
     *
     * @param redirects over RESP2, each master's redirect connections (to that master, as over RESP3 its pushes)
     * @throws io.redkit.TrackingRefusedException with the server's answer when one refuses
     */
    public static TrackedClusterReads open(StatefulRedisClusterConnection<String, byte[]> cluster,
            Function<StatefulRedisConnection<String, byte[]>, RedisOps> opsOf, List<String> prefixes,
            InvalidationListener listener, Runnable refreshTopology, Duration wait, NodeRedirects redirects) {
        TrackedClusterReads reads = new TrackedClusterReads(cluster, opsOf, prefixes, listener, refreshTopology,
                redirects);
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            for (RedisClusterNode master : masters(cluster)) {
                TrackedConnection node = reads.node(master);
                node.confirmed().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            return reads;
        } catch (ExecutionException | TimeoutException | InterruptedException | RuntimeException e) {
            reads.close();
            throw TrackedConnection.refused(prefixes, e, wait);
        }
    }

    private static List<RedisClusterNode> masters(StatefulRedisClusterConnection<String, byte[]> cluster) {
        List<RedisClusterNode> masters = new ArrayList<>();
        for (RedisClusterNode node : cluster.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && node.getUri() != null && !node.getSlots().isEmpty()) {
                masters.add(node);
            }
        }
        return masters;
    }

    private static String address(RedisClusterNode master) {
        return master.getUri().getHost() + ":" + master.getUri().getPort();
    }

    private TrackedConnection node(RedisClusterNode master) {
        String address = address(master);
        TrackedConnection known = nodes.get(address);
        if (known != null) {
            return known;
        }
        String host = master.getUri().getHost();
        int port = master.getUri().getPort();
        TrackedConnection node = nodes.computeIfAbsent(address, a -> TrackedConnection.attach(
                cluster.getConnection(host, port), opsOf, prefixes, listener, false, redirects.to(host, port)));
        snapshot();
        return node;
    }

    /* Under a lock: each change is followed by a snapshot taken after it, so the last one written has them all. */
    private synchronized void snapshot() {
        attached = nodes.values().toArray(TrackedConnection[]::new);
    }

    private TrackedConnection nodeOf(String key) {
        RedisClusterNode owner = cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
        if (owner == null || owner.getUri() == null) {
            refreshTopology.run();
            throw new RedisUnavailableException("no master known for the slot of " + key + "; not executed",
                    Outcome.NOT_EXECUTED, null);
        }
        return node(owner);
    }

    /**
     * Runs after the Cluster's view changed: every copy may now live on a master that will not invalidate it, so
     * the listener hears a reset; masters that left are let go, new ones get tracking.
     */
    public void topologyChanged() {
        if (closed) {
            return;
        }
        List<RedisClusterNode> masters = masters(cluster);
        List<String> current = masters.stream().map(TrackedClusterReads::address).toList();
        nodes.entrySet().removeIf(e -> {
            if (current.contains(e.getKey())) {
                return false;
            }
            e.getValue().close();
            return true;
        });
        snapshot();
        listener.reset("the Cluster's slots moved");
        masters.forEach(this::node);
    }

    @Override
    public boolean tracking() {
        TrackedConnection[] all = attached;
        if (closed || all.length == 0) {
            return false;
        }
        for (TrackedConnection node : all) {
            if (!node.tracking()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public CompletableFuture<Void> invalidationsDelivered() {
        return CompletableFuture.allOf(nodes.values().stream().map(TrackedConnection::invalidationsDelivered)
                .toArray(CompletableFuture[]::new));
    }

    @Override
    public Optional<byte[]> get(String key) {
        try {
            return nodeOf(key).get(key);
        } catch (RedisCommandException e) {
            throw moved(e);
        }
    }

    @Override
    public CompletableFuture<Optional<byte[]>> getAsync(String key) {
        try {
            return redirected(nodeOf(key).getAsync(key));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Optional<Duration>> ttlAsync(String key) {
        try {
            return redirected(nodeOf(key).ttlAsync(key));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** One MGET per master, in the order of their first keys; the answers in the order given. */
    @Override
    public List<Optional<byte[]>> mget(List<String> keys) {
        Map<TrackedConnection, List<Integer>> byNode = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            byNode.computeIfAbsent(nodeOf(keys.get(i)), n -> new ArrayList<>()).add(i);
        }
        List<Optional<byte[]>> answers = new ArrayList<>(java.util.Collections.nCopies(keys.size(), Optional.empty()));
        try {
            for (Map.Entry<TrackedConnection, List<Integer>> e : byNode.entrySet()) {
                List<String> some = e.getValue().stream().map(keys::get).toList();
                List<Optional<byte[]>> values = e.getKey().mget(some);
                for (int j = 0; j < values.size(); j++) {
                    answers.set(e.getValue().get(j), values.get(j));
                }
            }
        } catch (RedisCommandException e) {
            throw moved(e);
        }
        return answers;
    }

    private <T> CompletableFuture<T> redirected(CompletableFuture<T> reply) {
        return reply.exceptionallyCompose(failure -> {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            return CompletableFuture.failedFuture(cause instanceof RedisCommandException command ? moved(command)
                    : cause);
        });
    }

    /* A slot that moved is not the caller's error: the read was not executed where the key is. */
    private RuntimeException moved(RedisCommandException e) {
        if (!"MOVED".equals(e.errorCode()) && !"ASK".equals(e.errorCode())) {
            return e;
        }
        refreshTopology.run();
        return new RedisUnavailableException("the key's slot moved (" + e.getMessage() + "); not executed",
                Outcome.NOT_EXECUTED, e);
    }

    @Override
    public void close() {
        closed = true;
        nodes.values().forEach(TrackedConnection::close);
        nodes.clear();
        snapshot();
        cluster.close();
    }

    @Override
    public String toString() {
        return "TrackedClusterReads[" + nodes.keySet() + ", tracking=" + tracking() + "]";
    }
}
