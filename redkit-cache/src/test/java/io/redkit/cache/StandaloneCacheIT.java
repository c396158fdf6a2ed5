package io.redkit.cache;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/** {@link CacheContract} on one real redis-server. */
class StandaloneCacheIT extends CacheContract {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @Override
    String url() {
        return redis.server().url();
    }

    @Override
    void pauseServerOf(String key) {
        redis.server().pause();
    }

    @Override
    void killServerOf(String key) {
        redis.server().kill();
    }

    @Override
    void healAll() {
        redis.server().heal();
    }

    @Override
    void onEveryNode(String... command) {
        redis.server().command(command);
    }
}
