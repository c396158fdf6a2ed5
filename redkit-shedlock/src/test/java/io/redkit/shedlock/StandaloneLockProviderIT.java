package io.redkit.shedlock;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** ShedLock's provider contract on one real redis-server. */
class StandaloneLockProviderIT extends LockProviderContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneLockProviderIT() {
        super(redis);
    }
}
