package io.redkit.cache;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link PlainJsonContract} on one real redis-server. */
class StandalonePlainJsonIT extends PlainJsonContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandalonePlainJsonIT() {
        super(redis);
    }
}
