package io.redkit.testing;

import java.util.List;

/**
 * A Redis deployment under test, of any topology, with the faults a contract suite injects: a suite written
 * against this interface runs on standalone, Cluster and Sentinel by adding one small class per topology.
 *
 * <p>Get one from {@link DeploymentExtension} in a test, or wrap a running server, cluster or group with
 * {@code of(...)}; the caller of {@code of} keeps owning (and closing) what it wraps.
 */
public interface Deployment {

    /** The topologies a deployment can have. */
    enum Kind {
        /** One redis-server. */
        STANDALONE,
        /** A Redis Cluster. */
        CLUSTER,
        /** A master and its replicas, watched by sentinels. */
        SENTINEL
    }

    /** Returns a deployment of one standalone server. */
    static Deployment of(RedisServer server) {
        return new StandaloneDeployment(server);
    }

    /** Returns a deployment of a Redis Cluster. */
    static Deployment of(RedisCluster cluster) {
        return new ClusterDeployment(cluster);
    }

    /** Returns a deployment of a Sentinel group; clients connect through the sentinels. */
    static Deployment of(RedisSentinelGroup group) {
        return new SentinelDeployment(group);
    }

    /** Returns the topology. */
    Kind kind();

    /** Returns the URL a client connects with: {@code redis://}, a Cluster seed list, or {@code redis-sentinel://}. */
    String url();

    /** Returns the master that holds {@code key} now: the owner of its slot on a Cluster, the master elsewhere. */
    RedisServer serverOf(String key);

    /** Returns the current masters. */
    List<RedisServer> masters();

    /** Returns the current replicas (none for standalone). */
    List<RedisServer> replicas();

    /** Returns every data node, masters and replicas (not the sentinels). */
    List<RedisServer> nodes();

    /** Resumes paused processes, restarts killed ones and waits until the topology is stable again. */
    void healAll();

    /** Freezes (SIGSTOP) the master that holds {@code key}. */
    default void pauseServerOf(String key) {
        serverOf(key).pause();
    }

    /** Kills (SIGKILL) the master that holds {@code key}. */
    default void killServerOf(String key) {
        serverOf(key).kill();
    }

    /** Runs one admin command, such as {@code SCRIPT FLUSH}, on every data node. */
    default void onEveryDataNode(String... command) {
        nodes().forEach(node -> node.command(command));
    }
}
