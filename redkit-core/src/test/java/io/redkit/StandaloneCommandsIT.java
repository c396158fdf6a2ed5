package io.redkit;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link CommandsContract} on one real redis-server. */
class StandaloneCommandsIT extends CommandsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneCommandsIT() {
        super(redis);
    }
}
