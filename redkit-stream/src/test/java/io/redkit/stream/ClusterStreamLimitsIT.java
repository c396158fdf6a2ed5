package io.redkit.stream;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link StreamLimitsContract} on a real 3+3 Redis Cluster. */
class ClusterStreamLimitsIT extends StreamLimitsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> redis = DeploymentExtension.cluster();

    ClusterStreamLimitsIT() {
        super(redis);
    }
}
