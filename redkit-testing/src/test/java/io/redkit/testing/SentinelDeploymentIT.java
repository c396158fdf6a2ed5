package io.redkit.testing;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link DeploymentContract} on a Sentinel group (1 master, 1 replica, 3 sentinels). */
class SentinelDeploymentIT extends DeploymentContract {

    @RegisterExtension
    static final DeploymentExtension<RedisSentinelGroup> redis = DeploymentExtension.sentinel();

    SentinelDeploymentIT() {
        super(redis);
    }
}
