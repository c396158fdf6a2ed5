package io.redkit.testing;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension running one {@link RedisCluster}: per test class from a static
 * {@code @RegisterExtension} field, per test method from an instance field.
 *
 * <p>After each test, paused nodes are resumed, killed nodes restarted, and the extension waits until
 * the cluster is stable again. Roles changed by a failover are kept.
 */
public final class RedisClusterExtension extends ScopedExtension<RedisCluster> {

    private final RedisCluster.Builder builder;

    private RedisClusterExtension(RedisCluster.Builder builder) {
        this.builder = builder;
    }

    /** Returns an extension for a cluster of 3 masters with 1 replica each. */
    public static RedisClusterExtension create() {
        return new RedisClusterExtension(RedisCluster.builder());
    }

    /** Returns an extension for a cluster of the given size. */
    public static RedisClusterExtension create(int masters, int replicasPerMaster) {
        return new RedisClusterExtension(RedisCluster.builder().masters(masters).replicasPerMaster(replicasPerMaster));
    }

    /** Returns an extension that starts clusters from this builder. */
    public static RedisClusterExtension from(RedisCluster.Builder builder) {
        return new RedisClusterExtension(Objects.requireNonNull(builder, "builder"));
    }

    @Override
    RedisCluster startResource(ExtensionContext context) {
        return builder.start();
    }

    @Override
    void heal(RedisCluster cluster) {
        cluster.heal();
    }

    /** Returns the running cluster. */
    public RedisCluster cluster() {
        return resource();
    }

    /** Returns the masters' seed URL; see {@link RedisCluster#url()}. */
    public String url() {
        return cluster().url();
    }

    /** Returns one URL per node. */
    public List<String> seedUrls() {
        return cluster().seedUrls();
    }

    /** Returns every node. */
    public List<RedisServer> nodes() {
        return cluster().nodes();
    }

    /** Returns the current masters. */
    public List<RedisServer> masters() {
        return cluster().masters();
    }

    /** Returns the current replicas. */
    public List<RedisServer> replicas() {
        return cluster().replicas();
    }

    /** Returns the master owning the slot of {@code key}. */
    public RedisServer masterForKey(String key) {
        return cluster().masterForKey(key);
    }

    /** Returns a replica of {@code master}. */
    public RedisServer replicaOf(RedisServer master) {
        return cluster().replicaOf(master);
    }

    /** Promotes {@code replica} with CLUSTER FAILOVER and waits until all nodes agree. */
    public void failover(RedisServer replica) {
        cluster().failover(replica);
    }

    /** Migrates {@code slot} with its keys to {@code targetMaster}. */
    public void migrateSlot(int slot, RedisServer targetMaster) {
        cluster().migrateSlot(slot, targetMaster);
    }

    /** Waits until the cluster is stable. */
    public void awaitStable(Duration timeout) {
        cluster().awaitStable(timeout);
    }
}
