package io.redkit;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link CommandsContract} on a real 3-master/3-replica Cluster: SCAN walks every master. */
class ClusterCommandsIT extends CommandsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> redis = DeploymentExtension.cluster();

    ClusterCommandsIT() {
        super(redis);
    }
}
