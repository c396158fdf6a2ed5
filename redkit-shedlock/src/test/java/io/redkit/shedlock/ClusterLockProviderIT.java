package io.redkit.shedlock;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** ShedLock's provider contract on a real 3-master/3-replica Cluster, every acquisition confirmed by a replica. */
class ClusterLockProviderIT extends LockProviderContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterLockProviderIT() {
        super(cluster);
    }
}
