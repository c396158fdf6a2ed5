package io.redkit.stream;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link StreamQueueContract} on one real redis-server. */
class StandaloneStreamQueueIT extends StreamQueueContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneStreamQueueIT() {
        super(redis);
    }
}
