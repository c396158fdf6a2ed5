package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Redkit;
import io.redkit.cache.internal.DefaultCacheAside;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link TrackingNearCacheContract} on one real redis-server, plus what only a single server lets a test do. */
class StandaloneTrackingNearCacheIT extends TrackingNearCacheContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneTrackingNearCacheIT() {
        super(redis);
    }

    @Test
    void aRestartedServerEmptiesTheNearCacheAndItFillsAgainOnlyOnceTrackingIsBack() throws Exception {
        CacheAside<String, String> cache = tracked(redkit());
        DefaultCacheAside<String, String> inner = (DefaultCacheAside<String, String>) cache;
        source.rows.put("k", "v1");
        warm(cache, "k", "v1");
        source.rows.put("k", "v2");

        redis.get().kill();
        redis.get().restart(); // empty: it kept nothing on disk
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> cache.get("k").orElseThrow().equals("v2"));
        warm(cache, "k", "v2");
        foreignSet("k", "\"v3\"");
        delivered(cache);

        assertThat(cache.get("k")).as("tracked again on the new connection").contains("v3");
        assertThat(inner.nearCacheFlushes()).isGreaterThanOrEqualTo(2); // the drop, then tracking on again
    }

    @Test
    void debugRestartKeepsTheDataButEmptiesTheNearCacheAndTrackingComesBack() throws Exception {
        try (RedisServer server = RedisServer.builder().arg("enable-debug-command", "yes").start()) {
            CacheAside<String, String> cache = tracked(redkit(b -> b.url(server.url())));
            source.rows.put("r", "v1");
            warm(cache, "r", "v1");
            long resets = ((DefaultCacheAside<String, String>) cache).nearCacheFlushes();

            try {
                server.command("DEBUG", "RESTART"); // saves, closes every connection, starts again on its data
            } catch (RuntimeException dropped) {
                // The admin connection is one of those closed: no reply is the expected answer.
            }
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    ((DefaultCacheAside<String, String>) cache).nearCacheFlushes() >= resets + 2);
            server.command("SET", entryKey("r"), "\"v2\""); // kept across the restart, so only a write changes it
            delivered(cache);

            assertThat(cache.get("r")).contains("v2");
            warm(cache, "r", "v2");
        }
    }

    @Test
    void aConnectionThatSpeaksResp2IsTrackedWithItsInvalidationsRedirected() throws Exception {
        // A server (or a proxy) without HELLO: the client falls back to RESP2, where the server cannot push; it
        // publishes the invalidations on a subscribed connection of redkit's instead (CLIENT TRACKING ... REDIRECT).
        try (RedisServer noHello = RedisServer.builder().arg("rename-command", "HELLO", "HELLO-" + name).start()) {
            CacheAside<String, String> cache = tracked(redkit(b -> b.url(noHello.url())));
            DefaultCacheAside<String, String> inner = (DefaultCacheAside<String, String>) cache;
            assertThat(inner.nearCacheInvalidation()).contains(NearCacheInvalidation.TRACKING);
            source.rows.put("r", "v1");
            warm(cache, "r", "v1");

            noHello.command("SET", entryKey("r"), "\"v2\""); // not redkit's hand
            delivered(cache);
            assertThat(cache.get("r")).as("a foreign SET").contains("v2");

            warm(cache, "r", "v2");
            source.rows.put("r", "v3");
            noHello.command("DEL", entryKey("r"));
            delivered(cache);
            assertThat(cache.get("r")).as("a foreign DEL").contains("v3");

            warm(cache, "r", "v3");
            source.rows.put("r", "v4");
            long resets = inner.nearCacheFlushes();
            noHello.command("FLUSHALL");
            delivered(cache);
            assertThat(cache.get("r")).as("a FLUSHALL").contains("v4");
            assertThat(inner.nearCacheFlushes()).isGreaterThan(resets);

            warm(cache, "r", "v4");
            source.rows.put("r", "v5");
            resets = inner.nearCacheFlushes();
            noHello.kill();
            noHello.restart(); // empty: it kept nothing on disk
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                    .until(() -> cache.get("r").orElseThrow().equals("v5"));
            warm(cache, "r", "v5");
            noHello.command("SET", entryKey("r"), "\"v6\"");
            delivered(cache);
            assertThat(cache.get("r")).as("tracked again after the restart").contains("v6");
            assertThat(inner.nearCacheFlushes()).isGreaterThanOrEqualTo(resets + 2); // the drop, then tracking on
        }
    }

    @Test
    void aServerThatRefusesTrackingGetsTheChannelAndTheLogSaysWhy() {
        redis.get().command("ACL", "SETUSER", "notrack-" + name, "on", ">pw-" + name, "~*", "&*", "+@all",
                "-client|tracking");
        try {
            Redkit redkit = redkit(b -> b.url(redis.get().url().replace("redis://",
                    "redis://notrack-" + name + ":pw-" + name + "@")));
            CacheAside<String, String> cache = tracked(redkit);

            assertThat(((DefaultCacheAside<String, String>) cache).nearCacheInvalidation())
                    .contains(NearCacheInvalidation.PUBSUB);
            source.rows.put("x", "v1");
            warm(cache, "x", "v1");
        } finally {
            redis.get().command("ACL", "DELUSER", "notrack-" + name);
        }
    }
}
