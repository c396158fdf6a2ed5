package io.redkit.testing;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link DeploymentContract} on one redis-server. */
class StandaloneDeploymentIT extends DeploymentContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneDeploymentIT() {
        super(redis);
    }
}
