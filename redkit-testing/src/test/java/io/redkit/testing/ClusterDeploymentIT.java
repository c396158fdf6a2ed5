package io.redkit.testing;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link DeploymentContract} on a 3-master/3-replica Cluster. */
class ClusterDeploymentIT extends DeploymentContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> redis = DeploymentExtension.cluster();

    ClusterDeploymentIT() {
        super(redis);
    }
}
