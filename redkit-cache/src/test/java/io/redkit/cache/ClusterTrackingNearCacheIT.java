package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.cache.internal.DefaultCacheAside;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisServer;

/**
 * {@link TrackingNearCacheContract} on a real 3-master/3-replica Cluster: each read goes to its slot's master on a
 * tracked connection of its own; and a slot moved to another master is tracked there.
 */
class ClusterTrackingNearCacheIT extends TrackingNearCacheContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterTrackingNearCacheIT() {
        super(cluster);
    }

    @Test
    void aKeyWhoseSlotMovedIsTrackedOnItsNewMaster() throws Exception {
        CacheAside<String, String> cache = tracked(redkit());
        source.rows.put("k", "v1");
        warm(cache, "k", "v1");
        RedisCluster nodes = cluster.get();
        RedisServer from = nodes.masterForKey(entryKey("k"));
        RedisServer to = nodes.masters().stream().filter(m -> m != from).findFirst().orElseThrow();

        nodes.migrateSlot(((Long) from.command("CLUSTER", "KEYSLOT", entryKey("k"))).intValue(), to);
        // Written on the new owner behind the cache's back.
        source.rows.put("k", "v2");
        to.command("SET", entryKey("k"), "\"v2\"");
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> cache.get("k").orElseThrow().equals("v2"));
        warm(cache, "k", "v2");
        to.command("SET", entryKey("k"), "\"v3\"");
        delivered(cache);

        assertThat(cache.get("k")).contains("v3");
    }

    @Test
    void aClusterThatSpeaksResp2IsTrackedWithEachMastersInvalidationsRedirectedToIt() throws Exception {
        // Nodes (or a proxy) without HELLO: RESP2, where a master cannot push; each publishes its invalidations on a
        // subscribed connection of redkit's to it (CLIENT TRACKING ... REDIRECT).
        try (RedisCluster noHello = RedisCluster.builder().masters(3).replicasPerMaster(0)
                .arg("rename-command", "HELLO", "HELLO-" + name).start()) {
            CacheAside<String, String> cache = tracked(redkit(b -> b.url(noHello.url())));
            DefaultCacheAside<String, String> inner = (DefaultCacheAside<String, String>) cache;
            assertThat(inner.nearCacheInvalidation()).contains(NearCacheInvalidation.TRACKING);
            for (String id : List.of("a", "b", "c", "d", "e", "f")) {
                source.rows.put(id, "v1");
                warm(cache, id, "v1");
                RedisServer master = noHello.masterForKey(entryKey(id));

                master.command("SET", entryKey(id), "\"v2\""); // not redkit's hand
                delivered(cache);
                assertThat(cache.get(id)).as("a foreign SET of %s on %s", id, master).contains("v2");
            }
        }
    }
}
