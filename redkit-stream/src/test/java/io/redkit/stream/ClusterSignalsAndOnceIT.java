package io.redkit.stream;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/** {@link SignalsAndOnceContract} on a real 3+3 Cluster, where signals travel as sharded pub/sub. */
class ClusterSignalsAndOnceIT extends SignalsAndOnceContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterSignalsAndOnceIT() {
        super(cluster);
    }
}
