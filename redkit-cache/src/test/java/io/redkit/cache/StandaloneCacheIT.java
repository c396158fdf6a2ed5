package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Redkit;

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

    @Test
    void nearCacheIsBypassedWhileItsSubscriberIsDisconnected() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.nearCache(1000, Duration.ofMinutes(5)));
        source.rows.put("d", "v1");
        assertThat(cache.get("d")).contains("v1");
        source.rows.put("d", "v2"); // changed behind the cache's back: no invalidation was ever sent

        redis.server().kill();
        // Invalidations cannot arrive now, so the five-minute near copy must not be served: the loader answers.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(cache.get("d")).contains("v2"));
    }
}
