package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Redkit;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link CacheContract} on one real redis-server. */
class StandaloneCacheIT extends CacheContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneCacheIT() {
        super(redis);
    }

    @Test
    void nearCacheIsBypassedWhileItsSubscriberIsDisconnected() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.nearCache(1000, Duration.ofMinutes(5)));
        source.rows.put("d", "v1");
        assertThat(cache.get("d")).contains("v1");
        source.rows.put("d", "v2"); // changed behind the cache's back: no invalidation was ever sent

        redis.get().kill();
        // Invalidations cannot arrive now, so the five-minute near copy must not be served: the loader answers.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(cache.get("d")).contains("v2"));
    }
}
