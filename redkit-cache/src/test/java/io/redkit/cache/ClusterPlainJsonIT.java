package io.redkit.cache;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link PlainJsonContract} on a real 3-master/3-replica Cluster: GET and PTTL of a key reach its node together. */
class ClusterPlainJsonIT extends PlainJsonContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterPlainJsonIT() {
        super(cluster);
    }
}
