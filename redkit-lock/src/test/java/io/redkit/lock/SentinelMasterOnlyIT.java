package io.redkit.lock;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisSentinelGroup;

/** {@link MasterOnlyContract} on a real Sentinel group. */
class SentinelMasterOnlyIT extends MasterOnlyContract {

    @RegisterExtension
    static final DeploymentExtension<RedisSentinelGroup> redis = DeploymentExtension.sentinel();

    SentinelMasterOnlyIT() {
        super(redis);
    }
}
