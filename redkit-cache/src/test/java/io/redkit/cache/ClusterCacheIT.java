package io.redkit.cache;

import java.time.Duration;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisClusterExtension;
import io.redkit.testing.RedisServer;

/** {@link CacheContract} on a real 3-master/3-replica Cluster: MGET and UNLINK split per slot, SCAN on every master. */
class ClusterCacheIT extends CacheContract {

    @RegisterExtension
    static final RedisClusterExtension cluster = RedisClusterExtension.create();

    private static RedisCluster cluster() {
        return cluster.cluster();
    }

    @Override
    String url() {
        return cluster().url();
    }

    @Override
    void pauseServerOf(String key) {
        cluster().masterForKey(key).pause();
    }

    @Override
    void killServerOf(String key) {
        cluster().masterForKey(key).kill();
    }

    @Override
    void healAll() {
        boolean changed = false;
        for (RedisServer node : cluster().nodes()) {
            if (node.isPaused() || !node.isRunning()) {
                node.heal();
                changed = true;
            }
        }
        if (changed) {
            cluster().awaitStable(Duration.ofSeconds(20));
        }
    }

    @Override
    void onEveryNode(String... command) {
        cluster().nodes().forEach(n -> n.command(command));
    }
}
