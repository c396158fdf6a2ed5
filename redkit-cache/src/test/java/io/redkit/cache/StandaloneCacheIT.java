package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.CommandProfile;
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

    /*
     * Over redkit's channel, the other instances hear of an invalidation one round trip sooner when its PUBLISH
     * goes right behind the UNLINK on the same connection; the server still runs it after the UNLINK. Seen here:
     * while writes are paused, the UNLINK waits at the server with the PUBLISH already in its connection's query
     * buffer. Sent after the UNLINK's reply, as before, the buffer stays empty until the pause ends.
     */
    @Test
    void anotherInstanceIsToldOfAnInvalidationRightBehindItsUnlinkOnTheSameConnection() throws Exception {
        Redkit redkit = redkit(b -> b.requestProfile(CommandProfile.REQUEST.withTimeout(Duration.ofSeconds(30))));
        CacheAside<String, String> a = cache(redkit, b -> b.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        CacheAside<String, String> other = cache(redkit(), b -> b.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        source.rows.put("p", "v1");
        assertThat(other.get("p")).contains("v1");
        assertThat(other.get("p")).contains("v1");
        assertThat(other.stats().nearHits()).isEqualTo(1);
        source.rows.put("p", "v2");

        redis.get().command("CLIENT", "PAUSE", "20000", "WRITE");
        CompletableFuture<Long> invalidated;
        try {
            invalidated = CompletableFuture.supplyAsync(() -> a.invalidate("p"));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(redis.get().clientsNamed(clientName))
                    .as("a client waiting on its UNLINK with more in its query buffer")
                    .anySatisfy(c -> {
                        assertThat(c.get("cmd")).isEqualTo("unlink");
                        assertThat(c.get("flags")).contains("b");
                        assertThat(Long.parseLong(c.get("qbuf"))).isPositive();
                    }));
        } finally {
            redis.get().command("CLIENT", "UNPAUSE");
        }
        assertThat(invalidated.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(other.get("p")).contains("v2"));
    }
}
