package io.redkit.testing;

import static io.redkit.testing.ClusterChecks.field;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Sentinel queries: who the sentinels say the master is, and whether the group is fully in place. */
final class SentinelChecks {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(2);

    private SentinelChecks() {
    }

    /** Returns the port of the master as this sentinel reports it. */
    static int masterPort(RedisServer sentinel, String name) {
        List<?> address = (List<?>) sentinel.call(QUERY_TIMEOUT, false, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", name);
        if (address == null) {
            throw new IllegalStateException(sentinel.port() + " does not monitor " + name);
        }
        return Integer.parseInt((String) address.get(1));
    }

    /** Returns the master port all healthy sentinels agree on, or throws when they do not (yet) agree. */
    static int agreedMasterPort(List<RedisServer> sentinels, String name) {
        Integer agreed = null;
        for (RedisServer sentinel : sentinels) {
            if (sentinel.isHealthy()) {
                int port = masterPort(sentinel, name);
                if (agreed != null && agreed != port) {
                    throw new IllegalStateException("sentinels disagree on the master: " + agreed + " vs " + port);
                }
                agreed = port;
            }
        }
        if (agreed == null) {
            throw new IllegalStateException("no sentinel is running");
        }
        return agreed;
    }

    /** Returns the ROLE of a data node: master, slave (replica) or sentinel. */
    static String role(RedisServer node) {
        return (String) ((List<?>) node.call(QUERY_TIMEOUT, false, "ROLE")).get(0);
    }

    static String replicationField(RedisServer node, String name) {
        return field((String) node.call(QUERY_TIMEOUT, false, "INFO", "replication"), name);
    }

    /**
     * Returns normally when the sentinels agree on a master that answers ROLE=master, every other
     * running data node is in sync with it, and every sentinel knows the other sentinels and the
     * replicas as healthy (so that a failover can be authorised and has a replica to promote).
     */
    static boolean checkStable(RedisSentinelGroup group) {
        List<RedisServer> sentinels = group.sentinels();
        int masterPort = agreedMasterPort(sentinels, group.masterName());
        RedisServer master = group.dataNodes().stream().filter(n -> n.port() == masterPort).findFirst()
                .orElseThrow(() -> new IllegalStateException("sentinels name unknown master port " + masterPort));
        if (!master.isHealthy() || !"master".equals(role(master))) {
            throw new IllegalStateException("master " + masterPort + " is not running as master");
        }
        List<RedisServer> replicas = group.dataNodes().stream().filter(n -> n != master && n.isHealthy()).toList();
        for (RedisServer replica : replicas) {
            if (!String.valueOf(masterPort).equals(replicationField(replica, "master_port"))
                    || !"up".equals(replicationField(replica, "master_link_status"))) {
                throw new IllegalStateException(replica.port() + " is not yet in sync with master " + masterPort);
            }
        }
        long healthySentinels = sentinels.stream().filter(RedisServer::isHealthy).count();
        for (RedisServer sentinel : sentinels) {
            if (sentinel.isHealthy()) {
                long peers = okEntries(sentinel, group.masterName(), "SENTINELS", "sentinel");
                long known = okEntries(sentinel, group.masterName(), "REPLICAS", "slave");
                if (peers < healthySentinels - 1 || known < replicas.size()) {
                    throw new IllegalStateException("sentinel " + sentinel.port() + " knows " + peers + " sentinels and "
                            + known + " replicas in good state so far");
                }
            }
        }
        return true;
    }

    /**
     * Counts entries of SENTINEL SENTINELS/REPLICAS whose flags are exactly {@code flags} (no s_down, no
     * disconnected). A replica's link status as the sentinel saw it is not required: a sentinel refreshes
     * it only every 10 s, and every second once the master is down, which is in time for a failover.
     */
    private static long okEntries(RedisServer sentinel, String name, String listing, String flags) {
        List<?> entries = (List<?>) sentinel.call(QUERY_TIMEOUT, false, "SENTINEL", listing, name);
        return entries.stream().map(e -> asMap((List<?>) e)).filter(e -> flags.equals(e.get("flags"))).count();
    }

    private static Map<String, String> asMap(List<?> flat) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            map.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
        }
        return map;
    }
}
