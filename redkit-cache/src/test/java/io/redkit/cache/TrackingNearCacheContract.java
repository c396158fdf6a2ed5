package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.redkit.Redkit;
import io.redkit.cache.internal.DefaultCacheAside;
import io.redkit.testing.Deployment;
import io.redkit.testing.RedisServer;

/**
 * A near cache the server invalidates ({@link NearCacheInvalidation#TRACKING}, the default): whatever changes an
 * entry in Redis, by whichever client (here the test's own raw connection, as redis-cli would), the near copy is
 * gone once one round trip on the tracked connection has ended after the change ({@code nearInvalidationsDelivered}),
 * and a reply that raced an invalidation is never kept.
 */
abstract class TrackingNearCacheContract extends CacheFixture {

    TrackingNearCacheContract(Deployment deployment) {
        super(deployment);
    }

    CacheAside<String, String> tracked(Redkit redkit) {
        return cache(redkit, b -> b.format(CacheFormat.PLAIN_JSON).nearCache(1000, Duration.ofMinutes(5)));
    }

    /** Reads {@code id} until one read is answered by the near cache; the source holds {@code value}. */
    static void warm(CacheAside<String, String> cache, String id, String value) {
        long nearHits = cache.stats().nearHits();
        await().atMost(Duration.ofSeconds(5)).until(() -> cache.get(id).orElseThrow().equals(value)
                && cache.stats().nearHits() > nearHits);
    }

    static void delivered(CacheAside<String, String> cache) throws Exception {
        ((DefaultCacheAside<String, String>) cache).nearInvalidationsDelivered().get(5, TimeUnit.SECONDS);
    }

    RedisServer serverOf(String id) {
        return deployment.serverOf(entryKey(id));
    }

    /** A write by another client, as redis-cli would send it. */
    void foreignSet(String id, String json) {
        serverOf(id).command("SET", entryKey(id), json);
    }

    @Test
    void trackingIsTheDefaultWhereTheServerOffersIt() {
        CacheAside<String, String> cache = tracked(redkit());
        assertThat(((DefaultCacheAside<String, String>) cache).nearCacheInvalidation())
                .contains(NearCacheInvalidation.TRACKING);
    }

    @Test
    void aForeignSetIsSeenOnceOneRoundTripHasEnded() throws Exception {
        CacheAside<String, String> cache = tracked(redkit());
        source.rows.put("s", "v1");
        warm(cache, "s", "v1");
        DefaultCacheAside<String, String> inner = (DefaultCacheAside<String, String>) cache;
        long heard = inner.nearCacheInvalidationsReceived(); // the fill's own write was one

        foreignSet("s", "\"v2\"");
        delivered(cache);

        assertThat(cache.get("s")).contains("v2");
        assertThat(inner.nearCacheInvalidationsReceived()).isEqualTo(heard + 1);
    }

    @Test
    void aForeignDeleteIsSeen() throws Exception {
        CacheAside<String, String> cache = tracked(redkit());
        source.rows.put("d", "v1");
        warm(cache, "d", "v1");
        source.rows.put("d", "v2");

        serverOf("d").command("DEL", entryKey("d"));
        delivered(cache);

        assertThat(cache.get("d")).contains("v2");
    }

    @Test
    void aTimeToLiveThatRunsOutOnTheServerIsSeen() throws Exception {
        CacheAside<String, String> cache = tracked(redkit());
        serverOf("e").command("SET", entryKey("e"), "\"v1\"", "PX", "1500");
        source.rows.put("e", "v2");
        warm(cache, "e", "v1");
        assertThat(cache.get("e")).as("still the near copy while the key lives").contains("v1");

        // The server's expiry (its active cycle, or the lazy one this very EXISTS triggers) invalidates the key.
        await().atMost(Duration.ofSeconds(10)).until(() -> ((Long) serverOf("e").command("EXISTS", entryKey("e")))
                == 0);
        delivered(cache);

        assertThat(cache.get("e")).contains("v2");
    }

    @Test
    void aFlushEmptiesTheWholeNearCache() throws Exception {
        CacheAside<String, String> cache = tracked(redkit());
        source.rows.put("f1", "v1");
        source.rows.put("f2", "v1");
        warm(cache, "f1", "v1");
        warm(cache, "f2", "v1");
        long resets = ((DefaultCacheAside<String, String>) cache).nearCacheFlushes();
        source.rows.put("f1", "v2");
        source.rows.put("f2", "v2");

        deployment.masters().forEach(m -> m.command("FLUSHALL"));
        delivered(cache);

        assertThat(cache.get("f1")).contains("v2");
        assertThat(cache.get("f2")).contains("v2");
        assertThat(((DefaultCacheAside<String, String>) cache).nearCacheFlushes()).isGreaterThan(resets);
    }

    @Test
    void anEvictionUnderMaxmemoryIsSeen() throws Exception {
        CacheAside<String, String> cache = tracked(redkit());
        source.rows.put("m", "v1");
        warm(cache, "m", "v1");
        source.rows.put("m", "v2");
        RedisServer server = serverOf("m");
        String filler = "x".repeat(64 * 1024);
        try {
            server.command("CONFIG", "SET", "maxmemory-policy", "allkeys-random");
            long used = Long.parseLong(info(server, "used_memory"));
            server.command("CONFIG", "SET", "maxmemory", Long.toString(used + 2 * 1024 * 1024));
            for (int i = 0; (Long) server.command("EXISTS", entryKey("m")) == 1; i++) {
                server.command("SET", "ballast:" + name + ":{m}:" + i, filler); // the entry's slot: one server on Cluster
            }
        } finally {
            server.command("CONFIG", "SET", "maxmemory", "0");
            server.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
        delivered(cache);

        assertThat(cache.get("m")).contains("v2");
    }

    @Test
    void aPausedServerServesNothingStaleOnceTheWriteMadeDuringThePauseHasReturned() throws Exception {
        CacheAside<String, String> cache = tracked(redkit());
        source.rows.put("p", "v1");
        warm(cache, "p", "v1");
        RedisServer server = serverOf("p");

        server.pause();
        CompletableFuture<Object> write;
        try {
            write = CompletableFuture.supplyAsync(() -> server.command("SET", entryKey("p"), "\"v2\""));
            // Nobody can change the key while the server is stopped: the near copy is still the truth.
            assertThat(cache.get("p")).contains("v1");
        } finally {
            server.resume();
        }
        write.get(10, TimeUnit.SECONDS);
        delivered(cache);

        assertThat(cache.get("p")).contains("v2");
    }

    @Test
    void aReaderNeverSeesAValueOlderThanTheLastWriteItWasToldOf() throws Exception {
        // What is checked is the near cache. A read Redis does not answer in time goes to the source through a
        // single flight whose waiters share a load that may have begun before the last write: the request timeout
        // is raised so that a loaded test machine does not take that path, and the path is counted below.
        CacheAside<String, String> cache = tracked(redkit(b -> b.commandTimeout(Duration.ofSeconds(10))));
        foreignSet("r", "\"0\"");
        source.rows.put("r", "0");
        AtomicLong told = new AtomicLong();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong nearHits = new AtomicLong();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                for (long v = 1; v <= 300; v++) {
                    // As a writer of cache-aside does: the source first, then the entry (a read that Redis
                    // cannot answer in time goes to the source).
                    source.rows.put("r", Long.toString(v));
                    foreignSet("r", "\"" + v + "\"");
                    delivered(cache); // from here on, every reader of this instance may be told
                    told.set(v);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                writing.set(false);
            }
        });
        List<String> stale = concurrently(16, i -> {
            while (writing.get()) {
                long before = told.get();
                long hits = cache.stats().nearHits();
                long seen = Long.parseLong(cache.get("r").orElseThrow());
                if (seen < before) {
                    return "read " + seen + " after being told of " + before + "; " + cache.stats();
                }
                nearHits.addAndGet(cache.stats().nearHits() > hits ? 1 : 0);
            }
            return null;
        });
        writer.get(60, TimeUnit.SECONDS);

        assertThat(cache.stats().loads()).as("reads that went to the source").isZero();
        assertThat(stale).containsOnlyNulls();
        assertThat(nearHits.get()).as("the near cache was in use, not bypassed").isPositive();
    }

    @Test
    void broadcastModeSeesAWriteToAKeyThisInstanceNeverReadAgain() throws Exception {
        CacheAside<String, String> cache = cache(redkit(), b -> b.format(CacheFormat.PLAIN_JSON)
                .nearCache(1000, Duration.ofMinutes(5)).nearCacheInvalidation(NearCacheInvalidation.TRACKING_BCAST));
        assertThat(((DefaultCacheAside<String, String>) cache).nearCacheInvalidation())
                .contains(NearCacheInvalidation.TRACKING_BCAST);
        source.rows.put("b", "v1");
        warm(cache, "b", "v1");

        foreignSet("b", "\"v2\"");
        delivered(cache);

        assertThat(cache.get("b")).contains("v2");
    }

    @Test
    void pubSubStaysAvailableAndOnlyHearsOfRedkitsOwnWrites() throws Exception {
        CacheAside<String, String> cache = cache(redkit(), b -> b.format(CacheFormat.PLAIN_JSON)
                .nearCache(1000, Duration.ofMinutes(5)).nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        assertThat(((DefaultCacheAside<String, String>) cache).nearCacheInvalidation())
                .contains(NearCacheInvalidation.PUBSUB);
        source.rows.put("o", "v1");
        warm(cache, "o", "v1");

        foreignSet("o", "\"v2\"");
        assertThat(cache.get("o")).as("the documented limit of PUBSUB").contains("v1");
    }

    static String info(RedisServer server, String field) {
        for (String line : ((String) server.command("INFO", "memory")).split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        throw new IllegalStateException(field + " not in INFO");
    }
}
