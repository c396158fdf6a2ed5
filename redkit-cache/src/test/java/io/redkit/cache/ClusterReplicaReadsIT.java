package io.redkit.cache;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link ReplicaReadsContract} on a real 3-master/3-replica Cluster. */
class ClusterReplicaReadsIT extends ReplicaReadsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> redis = DeploymentExtension.cluster();

    ClusterReplicaReadsIT() {
        super(redis);
    }
}
