package io.redkit.limit;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link LimitContract} on a real 3-master/3-replica Cluster: every limit of a subject shares its hash slot. */
class ClusterLimitIT extends LimitContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterLimitIT() {
        super(cluster);
    }
}
