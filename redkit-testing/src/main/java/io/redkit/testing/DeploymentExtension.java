package io.redkit.testing;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension running one {@link Deployment} and acting as it, so that a contract suite takes a
 * {@code Deployment} and each topology is one small class:
 *
 * <pre>{@code
 * class ClusterLockIT extends LockContract {
 *     @RegisterExtension
 *     static final DeploymentExtension<RedisCluster> redis = DeploymentExtension.cluster();
 *
 *     ClusterLockIT() {
 *         super(redis);
 *     }
 * }
 * }</pre>
 *
 * <p>Per test class from a static field, per test method from an instance field. After each test the
 * deployment is healed ({@link Deployment#healAll()}). {@link #get()} returns the running server, cluster or
 * group for the topology's own faults (failover, slot migration).
 *
 * @param <T> what runs: {@link RedisServer}, {@link RedisCluster} or {@link RedisSentinelGroup}
 */
public final class DeploymentExtension<T extends AutoCloseable> extends ScopedExtension<T> implements Deployment {

    private final Supplier<T> starter;
    private final Function<T, Deployment> view;

    private DeploymentExtension(Supplier<T> starter, Function<T, Deployment> view) {
        this.starter = starter;
        this.view = view;
    }

    /** Returns an extension for one standalone redis-server. */
    public static DeploymentExtension<RedisServer> standalone() {
        return new DeploymentExtension<>(RedisServer::start, Deployment::of);
    }

    /** Returns an extension for a Cluster of 3 masters with 1 replica each. */
    public static DeploymentExtension<RedisCluster> cluster() {
        return new DeploymentExtension<>(RedisCluster::start, Deployment::of);
    }

    /** Returns an extension for the default Sentinel group: 1 master, 1 replica, 3 sentinels. */
    public static DeploymentExtension<RedisSentinelGroup> sentinel() {
        return new DeploymentExtension<>(RedisSentinelGroup::start, Deployment::of);
    }

    @Override
    T startResource(ExtensionContext context) {
        return starter.get();
    }

    @Override
    void heal(T resource) {
        view.apply(resource).healAll();
    }

    /** Returns what runs: the server, the cluster or the Sentinel group. */
    public T get() {
        return resource();
    }

    private Deployment deployment() {
        return view.apply(resource());
    }

    @Override
    public Kind kind() {
        return deployment().kind();
    }

    @Override
    public String url() {
        return deployment().url();
    }

    @Override
    public RedisServer serverOf(String key) {
        return deployment().serverOf(key);
    }

    @Override
    public List<RedisServer> masters() {
        return deployment().masters();
    }

    @Override
    public List<RedisServer> replicas() {
        return deployment().replicas();
    }

    @Override
    public List<RedisServer> nodes() {
        return deployment().nodes();
    }

    @Override
    public void healAll() {
        deployment().healAll();
    }
}
