package io.redkit.testing;

import io.lettuce.core.cluster.SlotHash;
import io.redkit.testing.internal.ClusterNodes;
import io.redkit.testing.internal.ClusterNodes.Node;
import io.redkit.testing.internal.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Redis Cluster of real redis-server processes, fully formed (all 16384 slots assigned,
 * cluster_state:ok on every node, replicas in sync, all nodes agreeing) when {@code start} returns.
 *
 * <p>Roles are read from the cluster at each call, so {@link #masters()} reflects failovers.
 */
public final class RedisCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisCluster.class);
    private static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(30);
    // A manual failover that has not happened by then was dropped (it times out after 5 s): ask again.
    private static final long FAILOVER_RETRY_NANOS = Duration.ofSeconds(6).toNanos();

    private final List<RedisServer> nodes;

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Starts a cluster of 3 masters with 1 replica each. */
    public static RedisCluster start() {
        return builder().start();
    }

    /** Starts a cluster of {@code masters} masters with {@code replicasPerMaster} replicas each. */
    public static RedisCluster start(int masters, int replicasPerMaster) {
        return builder().masters(masters).replicasPerMaster(replicasPerMaster).start();
    }

    /** Returns a builder for sizes, node timeout and extra redis.conf directives. */
    public static Builder builder() {
        return new Builder();
    }

    static RedisCluster form(List<RedisServer> nodes, int masters, int replicasPerMaster, Duration timeout) {
        long started = System.nanoTime();
        ClusterFormation.form(nodes, masters, replicasPerMaster, timeout);
        LOG.info("Cluster of {} masters and {} replicas formed in {} ms on ports {}", masters, masters * replicasPerMaster,
                (System.nanoTime() - started) / 1_000_000, nodes.stream().map(n -> String.valueOf(n.port())).collect(Collectors.joining(",")));
        return new RedisCluster(nodes);
    }

    /** Returns every node, in start order (first the initial masters). */
    public List<RedisServer> nodes() {
        return nodes;
    }

    /** Returns the current masters as the cluster reports them. */
    public List<RedisServer> masters() {
        return servers(ClusterChecks.anyView(nodes).masters());
    }

    /** Returns the current replicas as the cluster reports them. */
    public List<RedisServer> replicas() {
        return servers(ClusterChecks.anyView(nodes).replicas());
    }

    /** Returns {@code redis://127.0.0.1:p1,127.0.0.1:p2,...} with the current masters, a seed list for a cluster client. */
    public String url() {
        return "redis://" + masters().stream().map(m -> RedisServer.HOST + ":" + m.port()).collect(Collectors.joining(","));
    }

    /** Returns {@code redis://127.0.0.1:p} for every node; any of them is a valid seed. */
    public List<String> seedUrls() {
        return nodes.stream().map(RedisServer::url).toList();
    }

    /** Returns the master that owns the hash slot of {@code key}, honouring {hash tags}. */
    public RedisServer masterForKey(String key) {
        return masterForSlot(SlotHash.getSlot(key));
    }

    /** Returns the master that owns {@code slot}. */
    public RedisServer masterForSlot(int slot) {
        if (slot < 0 || slot >= ClusterNodes.SLOTS) {
            throw new IllegalArgumentException("slot must be in 0..16383, was " + slot);
        }
        Node owner = ClusterChecks.anyView(nodes).ownerOf(slot)
                .orElseThrow(() -> new RedisTestingException("No master owns slot " + slot));
        return ClusterChecks.byPort(nodes, owner.port());
    }

    /** Returns a replica of {@code master}. */
    public RedisServer replicaOf(RedisServer master) {
        ClusterNodes view = ClusterChecks.anyView(nodes);
        Node node = view.byPort(master.port()).orElseThrow(() -> new IllegalArgumentException(master + " is not in this cluster"));
        return view.replicasOf(node.id()).stream().findFirst().map(r -> ClusterChecks.byPort(nodes, r.port()))
                .orElseThrow(() -> new RedisTestingException(master + " has no replica"));
    }

    /** Promotes {@code replica} with a graceful CLUSTER FAILOVER and waits until every node sees it as master and all agree. */
    public void failover(RedisServer replica) {
        requireMember(replica);
        if (!ClusterChecks.view(replica).myself().isReplica()) {
            throw new IllegalArgumentException(replica + " is not a replica");
        }
        long[] askedAt = {System.nanoTime()};
        replica.call(ClusterChecks.QUERY_TIMEOUT, false, "CLUSTER", "FAILOVER");
        Poll.until(replica.port() + " to be master on every node", CHANGE_TIMEOUT, () -> {
            if (!ClusterChecks.view(replica).myself().isMaster() && System.nanoTime() - askedAt[0] > FAILOVER_RETRY_NANOS) {
                replica.call(ClusterChecks.QUERY_TIMEOUT, false, "CLUSTER", "FAILOVER");
                askedAt[0] = System.nanoTime();
            }
            for (RedisServer node : nodes) {
                if (node.isHealthy() && !ClusterChecks.view(node).byPort(replica.port()).map(n -> n.isMaster() && n.slotCount() > 0).orElse(false)) {
                    throw new IllegalStateException(node.port() + " does not see " + replica.port() + " as master yet");
                }
            }
            return true;
        });
        awaitStable(CHANGE_TIMEOUT);
        LOG.info("Failed over to {}", replica);
    }

    /** Migrates {@code slot} with all its keys to {@code targetMaster} (IMPORTING/MIGRATING, MIGRATE, SETSLOT NODE) and waits until all agree. */
    public void migrateSlot(int slot, RedisServer targetMaster) {
        requireMember(targetMaster);
        RedisServer source = masterForSlot(slot);
        if (source == targetMaster) {
            return;
        }
        List<RedisServer> masters = masters();
        if (!masters.contains(targetMaster)) {
            throw new IllegalArgumentException(targetMaster + " is not a master");
        }
        SlotMigration.migrate(slot, source, targetMaster, masters);
        awaitStable(CHANGE_TIMEOUT);
        LOG.info("Migrated slot {} from {} to {}", slot, source.port(), targetMaster.port());
    }

    /** Waits until every running node reports cluster_state:ok and all agree on slot owners and roles. */
    public void awaitStable(Duration timeout) {
        Poll.until("cluster on ports " + nodes.stream().map(n -> String.valueOf(n.port())).collect(Collectors.joining(",")) + " to be stable",
                timeout, () -> ClusterChecks.checkStable(nodes));
    }

    /** Resumes paused nodes, restarts killed ones (they rejoin from their nodes.conf) and waits until stable. */
    public void heal() {
        nodes.forEach(RedisServer::resume);
        nodes.stream().filter(n -> !n.isRunning()).forEach(RedisServer::restart);
        awaitStable(CHANGE_TIMEOUT);
    }

    /** Kills every node and deletes their directories. */
    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }

    private List<RedisServer> servers(List<Node> view) {
        List<RedisServer> servers = new ArrayList<>();
        for (Node node : view) {
            servers.add(ClusterChecks.byPort(nodes, node.port()));
        }
        servers.sort(java.util.Comparator.comparingInt(nodes::indexOf));
        return servers;
    }

    private void requireMember(RedisServer server) {
        if (!nodes.contains(Objects.requireNonNull(server, "server"))) {
            throw new IllegalArgumentException(server + " is not a node of this cluster");
        }
    }
    /** Builds a {@link RedisCluster}; defaults: 3 masters, 1 replica each, cluster-node-timeout 2000 ms. */
    public static final class Builder {

        private final List<String[]> args = new ArrayList<>();
        private int masters = 3;
        private int replicasPerMaster = 1;
        private Duration nodeTimeout = Duration.ofMillis(2000);
        private Duration formationTimeout = Duration.ofSeconds(30);

        private Builder() {
        }

        /** Sets the number of masters (at least 1); the 16384 slots are split evenly between them. */
        public Builder masters(int masters) {
            if (masters < 1) {
                throw new IllegalArgumentException("masters must be at least 1, was " + masters);
            }
            this.masters = masters;
            return this;
        }

        /** Sets the number of replicas of each master (0 or more). */
        public Builder replicasPerMaster(int replicasPerMaster) {
            if (replicasPerMaster < 0) {
                throw new IllegalArgumentException("replicasPerMaster must be 0 or more, was " + replicasPerMaster);
            }
            this.replicasPerMaster = replicasPerMaster;
            return this;
        }

        /** Sets cluster-node-timeout: how long a node may be unreachable before it is failed (and a replica promoted). */
        public Builder nodeTimeout(Duration nodeTimeout) {
            if (nodeTimeout == null || nodeTimeout.toMillis() < 1) {
                throw new IllegalArgumentException("nodeTimeout must be at least 1 ms, was " + nodeTimeout);
            }
            this.nodeTimeout = nodeTimeout;
            return this;
        }

        /** Sets how long start() waits for the cluster to form (default 30 s). */
        public Builder formationTimeout(Duration formationTimeout) {
            if (formationTimeout == null || formationTimeout.isNegative() || formationTimeout.isZero()) {
                throw new IllegalArgumentException("formationTimeout must be positive, was " + formationTimeout);
            }
            this.formationTimeout = formationTimeout;
            return this;
        }

        /** Adds a redis.conf directive to every node (see {@link RedisServer.Builder#arg}). */
        public Builder arg(String name, String... values) {
            RedisServer.builder().arg(name, values); // validates now, naming the bad directive
            String[] directive = new String[values.length + 1];
            directive[0] = name;
            System.arraycopy(values, 0, directive, 1, values.length);
            args.add(directive);
            return this;
        }

        /** Starts the nodes and forms the cluster; on failure every node started so far is closed. */
        public RedisCluster start() {
            List<RedisServer> nodes = new ArrayList<>();
            try {
                for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
                    RedisServer.Builder node = RedisServer.builder().clusterEnabled(true)
                            .arg("cluster-node-timeout", String.valueOf(nodeTimeout.toMillis()));
                    args.forEach(a -> node.arg(a[0], java.util.Arrays.copyOfRange(a, 1, a.length)));
                    nodes.add(node.start());
                }
                return form(nodes, masters, replicasPerMaster, formationTimeout);
            } catch (RuntimeException e) {
                nodes.forEach(RedisServer::close);
                throw e;
            }
        }
    }
}
