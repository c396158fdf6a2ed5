package io.redkit.testing;

import io.redkit.testing.internal.ClusterNodes;
import io.redkit.testing.internal.ClusterNodes.Node;
import java.time.Duration;
import java.util.List;

/** Queries shared by cluster formation, failover and migration: views, INFO fields and the stability check. */
final class ClusterChecks {

    // Cluster queries must fail fast on a node someone paused without telling us.
    static final Duration QUERY_TIMEOUT = Duration.ofSeconds(2);

    private ClusterChecks() {
    }

    static ClusterNodes view(RedisServer node) {
        return ClusterNodes.parse((String) node.call(QUERY_TIMEOUT, false, "CLUSTER", "NODES"));
    }

    /** Returns the view of the first healthy node that answers. */
    static ClusterNodes anyView(List<RedisServer> nodes) {
        RuntimeException last = null;
        for (RedisServer node : nodes) {
            if (node.isHealthy()) {
                try {
                    return view(node);
                } catch (RuntimeException e) {
                    last = e;
                }
            }
        }
        throw new RedisTestingException("No cluster node is running and answering CLUSTER NODES", last);
    }

    static String info(RedisServer node, String... command) {
        return (String) node.call(QUERY_TIMEOUT, false, (Object[]) command);
    }

    /** Returns the value of {@code name:value} in INFO-style text, or {@code null}. */
    static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return null;
    }

    static RedisServer byPort(List<RedisServer> nodes, int port) {
        return nodes.stream().filter(n -> n.port() == port).findFirst()
                .orElseThrow(() -> new RedisTestingException("Cluster reports a node on port " + port + " that this cluster did not start"));
    }

    /**
     * Returns normally when every healthy node reports cluster_state:ok with all slots assigned, no slot
     * in migration, no healthy node seen as failing, one identical topology, and replicas whose master
     * is up connected to it; otherwise throws saying what is not there yet.
     */
    static boolean checkStable(List<RedisServer> nodes) {
        List<RedisServer> healthy = nodes.stream().filter(RedisServer::isHealthy).toList();
        if (healthy.isEmpty()) {
            throw new IllegalStateException("no cluster node is running");
        }
        String reference = null;
        int referencePort = 0;
        for (RedisServer node : healthy) {
            String state = field(info(node, "CLUSTER", "INFO"), "cluster_state");
            if (!"ok".equals(state)) {
                throw new IllegalStateException(node.port() + " reports cluster_state:" + state);
            }
            ClusterNodes view = view(node);
            if (view.assignedSlots() != ClusterNodes.SLOTS || view.hasOpenSlots()) {
                throw new IllegalStateException(node.port() + " sees " + view.assignedSlots() + " assigned slots"
                        + (view.hasOpenSlots() ? " and a slot in migration" : ""));
            }
            for (RedisServer other : healthy) {
                Node seen = view.byPort(other.port())
                        .orElseThrow(() -> new IllegalStateException(node.port() + " does not know " + other.port()));
                if (seen.isTroubled()) {
                    throw new IllegalStateException(node.port() + " sees " + other.port() + " as " + seen.flags());
                }
            }
            String signature = view.signature();
            if (reference == null) {
                reference = signature;
                referencePort = node.port();
            } else if (!reference.equals(signature)) {
                throw new IllegalStateException(node.port() + " and " + referencePort + " disagree on slot owners or roles");
            }
            checkReplicationLink(node, view, healthy);
        }
        return true;
    }

    private static void checkReplicationLink(RedisServer node, ClusterNodes view, List<RedisServer> healthy) {
        Node me = view.myself();
        if (!me.isReplica()) {
            return;
        }
        Node master = view.byId(me.masterId()).orElse(null);
        if (master != null && healthy.stream().anyMatch(s -> s.port() == master.port())) {
            String link = field(info(node, "INFO", "replication"), "master_link_status");
            if (!"up".equals(link)) {
                throw new IllegalStateException(node.port() + " is not yet in sync with its master " + master.port());
            }
        }
    }
}
