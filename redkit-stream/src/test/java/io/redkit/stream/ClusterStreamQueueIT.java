package io.redkit.stream;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link StreamQueueContract} on a real 3+3 Cluster: each script's keys share the stream's hash slot. */
class ClusterStreamQueueIT extends StreamQueueContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterStreamQueueIT() {
        super(cluster);
    }
}
