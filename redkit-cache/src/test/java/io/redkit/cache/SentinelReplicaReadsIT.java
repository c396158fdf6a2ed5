package io.redkit.cache;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisSentinelGroup;

/** {@link ReplicaReadsContract} on a real Sentinel group (one master, one replica). */
class SentinelReplicaReadsIT extends ReplicaReadsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisSentinelGroup> redis = DeploymentExtension.sentinel();

    SentinelReplicaReadsIT() {
        super(redis);
    }
}
