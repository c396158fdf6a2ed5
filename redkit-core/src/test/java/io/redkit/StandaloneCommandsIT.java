package io.redkit;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/** {@link CommandsContract} on one real redis-server. */
class StandaloneCommandsIT extends CommandsContract {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @Override
    String url() {
        return redis.url();
    }
}
