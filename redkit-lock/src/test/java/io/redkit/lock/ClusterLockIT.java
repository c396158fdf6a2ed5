package io.redkit.lock;

import java.time.Duration;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisClusterExtension;
import io.redkit.testing.RedisServer;

/** {@link LockContract} on a real 3-master/3-replica Cluster: every script's keys share the lock's hash slot. */
class ClusterLockIT extends LockContract {

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
    void resumeAll() {
        cluster().nodes().forEach(RedisServer::resume);
        cluster().awaitStable(Duration.ofSeconds(20));
    }
}
