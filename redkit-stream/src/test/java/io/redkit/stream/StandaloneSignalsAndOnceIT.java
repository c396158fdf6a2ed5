package io.redkit.stream;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link SignalsAndOnceContract} on one real redis-server. */
class StandaloneSignalsAndOnceIT extends SignalsAndOnceContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneSignalsAndOnceIT() {
        super(redis);
    }
}
