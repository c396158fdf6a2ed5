package io.redkit.stream;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link StreamFaultsContract} on one real redis-server. */
class StandaloneStreamFaultsIT extends StreamFaultsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneStreamFaultsIT() {
        super(redis);
    }
}
