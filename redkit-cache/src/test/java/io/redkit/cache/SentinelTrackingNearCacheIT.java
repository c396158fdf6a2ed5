package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisSentinelGroup;
import io.redkit.testing.RedisServer;

/**
 * {@link TrackingNearCacheContract} on a Sentinel group, and a failover: the tracked connection follows the master,
 * the near cache is emptied at the drop and is tracked again on the promoted replica.
 */
class SentinelTrackingNearCacheIT extends TrackingNearCacheContract {

    @RegisterExtension
    static final DeploymentExtension<RedisSentinelGroup> redis = DeploymentExtension.sentinel();

    SentinelTrackingNearCacheIT() {
        super(redis);
    }

    @Test
    void afterAFailoverTheNearCacheIsTrackedOnTheNewMaster() throws Exception {
        CacheAside<String, String> cache = tracked(redkit());
        source.rows.put("k", "v1");
        warm(cache, "k", "v1");
        RedisSentinelGroup group = redis.get();
        group.awaitStable(Duration.ofSeconds(20)); // the entry is on the replicas too
        RedisServer old = group.master();

        group.failover();
        RedisServer promoted = group.awaitNewMaster(old, Duration.ofSeconds(30));
        // Written on the new master behind the cache's back, while it may still be reconnecting.
        promoted.command("SET", entryKey("k"), "\"v2\"");
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> cache.get("k").orElseThrow().equals("v2"));
        warm(cache, "k", "v2");
        promoted.command("SET", entryKey("k"), "\"v3\"");
        delivered(cache);

        assertThat(cache.get("k")).contains("v3");
    }
}
