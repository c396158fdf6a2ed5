package io.redkit.testing;

import java.util.List;
import java.util.Objects;

/** {@link Deployment} of a Redis Cluster: a key lives on the master owning its hash slot. */
final class ClusterDeployment implements Deployment {

    private final RedisCluster cluster;

    ClusterDeployment(RedisCluster cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
    }

    @Override
    public Kind kind() {
        return Kind.CLUSTER;
    }

    @Override
    public String url() {
        return cluster.url();
    }

    @Override
    public RedisServer serverOf(String key) {
        return cluster.masterForKey(key);
    }

    @Override
    public List<RedisServer> masters() {
        return cluster.masters();
    }

    @Override
    public List<RedisServer> replicas() {
        return cluster.replicas();
    }

    @Override
    public List<RedisServer> nodes() {
        return cluster.nodes();
    }

    @Override
    public void healAll() {
        cluster.heal();
    }
}
