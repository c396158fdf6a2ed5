package io.redkit;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisSentinelGroup;

/** {@link CommandsContract} through Sentinel: the commands reach the master the Sentinels name. */
class SentinelCommandsIT extends CommandsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisSentinelGroup> redis = DeploymentExtension.sentinel();

    SentinelCommandsIT() {
        super(redis);
    }
}
