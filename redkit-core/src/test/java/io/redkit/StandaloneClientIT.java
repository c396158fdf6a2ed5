package io.redkit;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/** {@link ClientContract} on one real redis-server. */
class StandaloneClientIT extends ClientContract {

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
    void resumeAll() {
        redis.server().resume();
    }

    @Override
    void killServerOf(String key) {
        redis.server().kill();
    }

    @Override
    void restartAll() {
        if (!redis.server().isRunning()) {
            redis.server().restart();
        }
    }

    @Override
    void scriptFlushEverywhere() {
        redis.server().command("SCRIPT", "FLUSH");
    }
}
