package io.redkit.lock;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link LockContract} on a real 3-master/3-replica Cluster: every script's keys share the lock's hash slot. */
class ClusterLockIT extends LockContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterLockIT() {
        super(cluster);
    }
}
