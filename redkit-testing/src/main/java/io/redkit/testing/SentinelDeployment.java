package io.redkit.testing;

import java.util.List;
import java.util.Objects;

/** {@link Deployment} of a Sentinel group: every key lives on the master the sentinels report now. */
final class SentinelDeployment implements Deployment {

    private final RedisSentinelGroup group;

    SentinelDeployment(RedisSentinelGroup group) {
        this.group = Objects.requireNonNull(group, "group");
    }

    @Override
    public Kind kind() {
        return Kind.SENTINEL;
    }

    @Override
    public String url() {
        return group.url();
    }

    @Override
    public RedisServer serverOf(String key) {
        return group.master();
    }

    @Override
    public List<RedisServer> masters() {
        return List.of(group.master());
    }

    @Override
    public List<RedisServer> replicas() {
        return group.replicas();
    }

    @Override
    public List<RedisServer> nodes() {
        return group.dataNodes();
    }

    @Override
    public void healAll() {
        group.heal();
    }
}
