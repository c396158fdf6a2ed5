package io.redkit.limit;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link LimitContract} on one real redis-server. */
class StandaloneLimitIT extends LimitContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneLimitIT() {
        super(redis);
    }
}
