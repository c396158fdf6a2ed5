package io.redkit.session;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;

/**
 * {@link SessionContract} on a real 3-master/3-replica Cluster: a session and its user's index live in different
 * slots, and a rotated session usually lands on another master than the one it left.
 */
class ClusterSessionIT extends SessionContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterSessionIT() {
        super(cluster);
    }
}
