package io.redkit.testing;

import io.redkit.testing.internal.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Sentinel-monitored group of real processes: one master, its replicas and the sentinels watching
 * them, all in place (replicas in sync, sentinels knowing each other) when {@code start} returns.
 *
 * <p>Roles are read from the sentinels at each call, so {@link #master()} reflects failovers.
 */
public final class RedisSentinelGroup implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisSentinelGroup.class);
    private static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(30);

    private final String masterName;
    private final List<RedisServer> dataNodes;
    private final List<RedisServer> sentinels;

    private RedisSentinelGroup(String masterName, List<RedisServer> dataNodes, List<RedisServer> sentinels) {
        this.masterName = masterName;
        this.dataNodes = List.copyOf(dataNodes);
        this.sentinels = List.copyOf(sentinels);
    }

    /** Starts 1 master, 1 replica and 3 sentinels (quorum 2) monitoring master name {@code redkit}. */
    public static RedisSentinelGroup start() {
        return builder().start();
    }

    /** Returns a builder for the number of replicas and sentinels, the master name and timings. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns the name the sentinels monitor the master under. */
    public String masterName() {
        return masterName;
    }

    /** Returns the current master as the sentinels report it (SENTINEL GET-MASTER-ADDR-BY-NAME). */
    public RedisServer master() {
        RuntimeException last = null;
        for (RedisServer sentinel : sentinels) {
            if (sentinel.isHealthy()) {
                try {
                    return dataNode(SentinelChecks.masterPort(sentinel, masterName));
                } catch (RuntimeException e) {
                    last = e;
                }
            }
        }
        throw new RedisTestingException("No sentinel is running and answering for " + masterName, last);
    }

    /** Returns the data nodes that are not the current master. */
    public List<RedisServer> replicas() {
        RedisServer master = master();
        return dataNodes.stream().filter(n -> n != master).toList();
    }

    /** Returns the sentinel processes. */
    public List<RedisServer> sentinels() {
        return sentinels;
    }

    /** Returns the master and replicas, in start order (the initial master first). */
    public List<RedisServer> dataNodes() {
        return dataNodes;
    }

    /** Returns {@code redis-sentinel://127.0.0.1:s1,127.0.0.1:s2,...#<masterName>}, a Lettuce Sentinel URI. */
    public String url() {
        return "redis-sentinel://" + sentinels.stream().map(s -> RedisServer.HOST + ":" + s.port()).collect(Collectors.joining(","))
                + "#" + masterName;
    }

    /** Forces a failover (SENTINEL FAILOVER) and waits until the sentinels report a new master that answers ROLE=master. */
    public void failover() {
        RedisServer old = master();
        // Refused with NOGOODSLAVE or INPROG while the sentinels are still learning the replicas: ask again.
        Poll.until("a sentinel to accept SENTINEL FAILOVER " + masterName, CHANGE_TIMEOUT, () -> {
            RedisServer sentinel = sentinels.stream().filter(RedisServer::isHealthy).findFirst()
                    .orElseThrow(() -> new Poll.GiveUp(new RedisTestingException("No sentinel is running")));
            try {
                sentinel.call(Duration.ofSeconds(2), false, "SENTINEL", "FAILOVER", masterName);
                return true;
            } catch (RedisReplyException e) {
                if (e.code().equals("NOGOODSLAVE") || e.code().equals("INPROG")) {
                    throw e;
                }
                throw new Poll.GiveUp(e);
            }
        });
        RedisServer promoted = awaitNewMaster(old, CHANGE_TIMEOUT);
        LOG.info("Sentinel failover of {} from {} to {}", masterName, old.port(), promoted.port());
    }

    /** Waits until every running sentinel reports a master other than {@code old} and it answers ROLE=master; returns it. */
    public RedisServer awaitNewMaster(RedisServer old, Duration timeout) {
        Objects.requireNonNull(old, "old");
        return Poll.until("sentinels to promote a new master instead of " + old.port(), timeout, () -> {
            RedisServer master = dataNode(SentinelChecks.agreedMasterPort(sentinels, masterName));
            return master != old && master.isHealthy() && "master".equals(SentinelChecks.role(master)) ? master : null;
        });
    }

    /** Waits until the sentinels agree on a master, every running replica is in sync with it, and the sentinels know them all. */
    public void awaitStable(Duration timeout) {
        Poll.until("sentinel group " + masterName + " to be stable", timeout, () -> SentinelChecks.checkStable(this));
    }

    /**
     * Resumes paused processes, restarts killed ones, points a restarted former master at the current one
     * (rather than waiting for the sentinels to notice it) and waits until stable.
     */
    public void heal() {
        sentinels.forEach(RedisServer::heal);
        dataNodes.forEach(RedisServer::heal);
        RedisServer master = Poll.until("sentinels to agree on the master of " + masterName, CHANGE_TIMEOUT,
                () -> dataNode(SentinelChecks.agreedMasterPort(sentinels, masterName)));
        for (RedisServer node : dataNodes) {
            if (node != master && !String.valueOf(master.port()).equals(SentinelChecks.replicationField(node, "master_port"))) {
                node.call(RedisServer.ADMIN_TIMEOUT, false, "REPLICAOF", RedisServer.HOST, String.valueOf(master.port()));
            }
        }
        awaitStable(CHANGE_TIMEOUT);
    }

    /** Kills every process and deletes their directories. */
    @Override
    public void close() {
        sentinels.forEach(RedisServer::close);
        dataNodes.forEach(RedisServer::close);
    }

    private RedisServer dataNode(int port) {
        return dataNodes.stream().filter(n -> n.port() == port).findFirst()
                .orElseThrow(() -> new RedisTestingException("Sentinels report master port " + port + ", which is not a node of this group"));
    }

    /** Builds a {@link RedisSentinelGroup}; defaults: 1 replica, 3 sentinels, quorum 2, name redkit, down-after 1 s. */
    public static final class Builder {

        // Test servers on loopback only; the password keeps the sentinels' user from being the default one.
        private static final String SENTINEL_USER = "redkit-sentinel";
        private static final String SENTINEL_PASSWORD = "sentinel-" + Long.toHexString(System.nanoTime());

        private int replicas = 1;
        private int sentinels = 3;
        private int quorum;
        private String masterName = "redkit";
        private Duration downAfter = Duration.ofSeconds(1);
        private Duration failoverTimeout = Duration.ofSeconds(5);

        private Builder() {
        }

        /** Sets the number of replicas (0 or more; a failover needs at least 1). */
        public Builder replicas(int replicas) {
            if (replicas < 0) {
                throw new IllegalArgumentException("replicas must be 0 or more, was " + replicas);
            }
            this.replicas = replicas;
            return this;
        }

        /** Sets the number of sentinels (at least 1); the quorum defaults to a majority of them. */
        public Builder sentinels(int sentinels) {
            if (sentinels < 1) {
                throw new IllegalArgumentException("sentinels must be at least 1, was " + sentinels);
            }
            this.sentinels = sentinels;
            return this;
        }

        /** Sets how many sentinels must agree that the master is down (default: a majority). */
        public Builder quorum(int quorum) {
            if (quorum < 1) {
                throw new IllegalArgumentException("quorum must be at least 1, was " + quorum);
            }
            this.quorum = quorum;
            return this;
        }

        /** Sets the name the master is monitored under (default {@code redkit}). */
        public Builder masterName(String masterName) {
            if (masterName == null || !masterName.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("masterName must be letters, digits, '.', '_' or '-', was '" + masterName + "'");
            }
            this.masterName = masterName;
            return this;
        }

        /** Sets down-after-milliseconds: how long the master may be unreachable before it is considered down. */
        public Builder downAfter(Duration downAfter) {
            if (downAfter == null || downAfter.toMillis() < 1) {
                throw new IllegalArgumentException("downAfter must be at least 1 ms, was " + downAfter);
            }
            this.downAfter = downAfter;
            return this;
        }

        /** Sets failover-timeout (default 5 s), which also spaces out repeated failovers of one master. */
        public Builder failoverTimeout(Duration failoverTimeout) {
            if (failoverTimeout == null || failoverTimeout.toMillis() < 1) {
                throw new IllegalArgumentException("failoverTimeout must be at least 1 ms, was " + failoverTimeout);
            }
            this.failoverTimeout = failoverTimeout;
            return this;
        }

        /** Starts the master, then the replicas, then the sentinels, and waits until the group is stable. */
        public RedisSentinelGroup start() {
            int effectiveQuorum = quorum == 0 ? sentinels / 2 + 1 : quorum;
            if (effectiveQuorum > sentinels) {
                throw new IllegalStateException("quorum " + effectiveQuorum + " exceeds the " + sentinels + " sentinels");
            }
            List<RedisServer> data = new ArrayList<>();
            List<RedisServer> watchers = new ArrayList<>();
            try {
                RedisServer master = withSentinelUser(RedisServer.builder()).start();
                data.add(master);
                for (int i = 0; i < replicas; i++) {
                    data.add(withSentinelUser(RedisServer.builder()).replicaOf(master).start());
                }
                // Sentinels learn replicas from the master's INFO: start them once replicas are attached.
                Poll.until("replicas of " + master.port() + " to sync", CHANGE_TIMEOUT, () -> data.stream().skip(1)
                        .allMatch(r -> "up".equals(SentinelChecks.replicationField(r, "master_link_status"))));
                for (int i = 0; i < sentinels; i++) {
                    watchers.add(sentinel(master, effectiveQuorum));
                }
                RedisSentinelGroup group = new RedisSentinelGroup(masterName, data, watchers);
                group.awaitStable(CHANGE_TIMEOUT);
                LOG.info("Sentinel group {} ready: master {}, {} replicas, sentinels {}", masterName, master.port(), replicas, group.url());
                return group;
            } catch (RuntimeException e) {
                watchers.forEach(RedisServer::close);
                data.forEach(RedisServer::close);
                throw e;
            }
        }

        /*
         * The sentinels log in to the data nodes as a user of their own, not as the default user that replicas and
         * clients use: a test that locks the default user out of a master (a ReplicationCut changes its password)
         * must not lock the sentinels out too. A sentinel closes a link whose ping is slow and opens another; on a
         * busy machine that happens, and had it been refused, the sentinels would have failed over a master that
         * was up.
         */
        private static RedisServer.Builder withSentinelUser(RedisServer.Builder node) {
            return node.arg("user", SENTINEL_USER, "on", ">" + SENTINEL_PASSWORD, "~*", "&*", "+@all");
        }

        private RedisServer sentinel(RedisServer master, int effectiveQuorum) {
            return RedisServer.builder().sentinel()
                    .arg("sentinel", "monitor", masterName, RedisServer.HOST, String.valueOf(master.port()), String.valueOf(effectiveQuorum))
                    .arg("sentinel", "auth-user", masterName, SENTINEL_USER)
                    .arg("sentinel", "auth-pass", masterName, SENTINEL_PASSWORD)
                    .arg("sentinel", "down-after-milliseconds", masterName, String.valueOf(downAfter.toMillis()))
                    .arg("sentinel", "failover-timeout", masterName, String.valueOf(failoverTimeout.toMillis()))
                    .arg("sentinel", "parallel-syncs", masterName, "1")
                    .start();
        }
    }
}
