package io.redkit.lock;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link MasterOnlyContract} on a real 3-master/3-replica Cluster. */
class ClusterMasterOnlyIT extends MasterOnlyContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> redis = DeploymentExtension.cluster();

    ClusterMasterOnlyIT() {
        super(redis);
    }
}
