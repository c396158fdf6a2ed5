package io.redkit.testing;

import static io.redkit.testing.ClusterChecks.QUERY_TIMEOUT;

import io.redkit.testing.internal.ClusterNodes;
import io.redkit.testing.internal.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Forms a cluster from fresh nodes with plain CLUSTER commands, because the embedded 6.2 binary comes
 * without redis-cli (and ADDSLOTSRANGE only exists from 7.0).
 */
final class ClusterFormation {

    private static final int ADDSLOTS_BATCH = 1000;

    private ClusterFormation() {
    }

    /** Turns nodes into a cluster whose first {@code masters} nodes own the slots and the rest replicate them in turn. */
    static void form(List<RedisServer> nodes, int masters, int replicasPerMaster, Duration timeout) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            RedisServer node = nodes.get(i);
            ids.add((String) node.call(QUERY_TIMEOUT, false, "CLUSTER", "MYID"));
            // Distinct epochs let the nodes agree on slot owners without collision rounds, as redis-cli does.
            node.call(QUERY_TIMEOUT, false, "CLUSTER", "SET-CONFIG-EPOCH", String.valueOf(i + 1));
        }
        for (int m = 0; m < masters; m++) {
            addSlots(nodes.get(m), m * ClusterNodes.SLOTS / masters, (m + 1) * ClusterNodes.SLOTS / masters - 1);
        }
        RedisServer first = nodes.get(0);
        for (RedisServer node : nodes.subList(1, nodes.size())) {
            first.call(QUERY_TIMEOUT, false, "CLUSTER", "MEET", RedisServer.HOST, String.valueOf(node.port()));
        }
        Poll.until("every node to know all " + nodes.size() + " nodes", timeout, () -> {
            for (RedisServer node : nodes) {
                ClusterNodes view = ClusterChecks.view(node);
                for (String id : ids) {
                    if (view.byId(id).map(n -> n.flags().contains("handshake")).orElse(true)) {
                        throw new IllegalStateException(node.port() + " has not met " + id);
                    }
                }
            }
            return true;
        });
        for (int r = 0; r < masters * replicasPerMaster; r++) {
            RedisServer replica = nodes.get(masters + r);
            replica.call(QUERY_TIMEOUT, false, "CLUSTER", "REPLICATE", ids.get(r / replicasPerMaster));
        }
        Poll.until("cluster of " + masters + " masters and " + masters * replicasPerMaster + " replicas to be stable", timeout, () -> {
            ClusterChecks.checkStable(nodes);
            ClusterNodes view = ClusterChecks.anyView(nodes);
            return view.masters().size() == masters && view.replicas().size() == masters * replicasPerMaster;
        });
    }

    private static void addSlots(RedisServer master, int from, int to) {
        for (int start = from; start <= to; start += ADDSLOTS_BATCH) {
            int end = Math.min(to, start + ADDSLOTS_BATCH - 1);
            List<Object> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = start; slot <= end; slot++) {
                command.add(String.valueOf(slot));
            }
            master.call(QUERY_TIMEOUT, false, command.toArray());
        }
    }
}
