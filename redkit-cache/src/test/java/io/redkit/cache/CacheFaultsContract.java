package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import io.redkit.RedkitException;
import io.redkit.Redkit;
import io.redkit.cache.internal.DefaultCacheAside;
import io.redkit.testing.CommandLog;
import io.redkit.testing.Deployment;

/**
 * The cache when something goes wrong at its edges: loaders slower than their lease or calling themselves,
 * invalidations racing fills, entries of the wrong type, a failed UNLINK, a reconnect, Redis stalling and coming
 * back, and the cost of a hit. Each test is named after the promise it pins; each runs on every topology.
 */
abstract class CacheFaultsContract extends CacheFixture {

    CacheFaultsContract(Deployment deployment) {
        super(deployment);
    }

    @Test
    void loaderSlowerThanTheFillLeaseStillFillsTheCache() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.fillLease(Duration.ofMillis(300))
                .fillWait(Duration.ofMillis(100)));
        source.rows.put("slow", "report");
        source.latencyNanos = TimeUnit.MILLISECONDS.toNanos(1_200); // four lease lifetimes

        assertThat(cache.get("slow")).contains("report");
        assertThat(redkit.commands().exists(entryKey("slow"))).as("written back after a slow load").isEqualTo(1);
        source.latencyNanos = 0;
        assertThat(cache.get("slow")).contains("report");
        assertThat(source.loads.get()).isEqualTo(1);
        assertThat(cache.stats().staleFillsPrevented()).isZero();
    }

    @Test
    void hungLoaderKeepsItsLeaseForAtMostTwelveLifetimes() throws Exception {
        Redkit redkit = redkit();
        CountDownLatch release = new CountDownLatch(1);
        CacheAside<String, String> cache = cache(redkit, b -> b.fillLease(Duration.ofMillis(200))
                .fillWait(Duration.ofMillis(100)).loader(id -> {
                    release.await();
                    return Optional.of("late");
                }));
        CompletableFuture<Optional<String>> hung = CompletableFuture.supplyAsync(() -> cache.get("h"));
        String lease = entryKey("h") + ":fill";
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(lease) == 1);
        long taken = System.nanoTime();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> redkit.commands().exists(lease) == 0);
        long heldMillis = (System.nanoTime() - taken) / 1_000_000;
        System.out.printf("[figures] %s a hung loader's 200 ms lease was kept alive for %d ms%n",
                getClass().getSimpleName(), heldMillis);
        assertThat(heldMillis).as("kept alive past one lifetime, then let go").isBetween(1_000L, 4_000L);
        release.countDown();
        assertThat(hung.get(5, TimeUnit.SECONDS)).contains("late");
    }

    @Test
    void invalidationStillRefusesASlowLoadThatBeganBeforeIt() throws Exception {
        Redkit redkit = redkit();
        CountDownLatch loading = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        source.rows.put("r", "old");
        CacheAside<String, String> cache = cache(redkit, b -> b.fillLease(Duration.ofMillis(300))
                .fillWait(Duration.ofMillis(100)).loader(id -> {
                    Optional<String> row = source.load(id);
                    loading.countDown();
                    finish.await();
                    return row;
                }));
        CompletableFuture<Optional<String>> slow = CompletableFuture.supplyAsync(() -> cache.get("r"));
        assertThat(loading.await(5, TimeUnit.SECONDS)).isTrue();
        await().pollDelay(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)) // past the lease: kept alive
                .until(() -> redkit.commands().exists(entryKey("r") + ":fill") == 1);
        source.rows.put("r", "new");
        cache.invalidate("r");
        finish.countDown();

        assertThat(slow.get(5, TimeUnit.SECONDS)).contains("old");
        assertThat(redkit.commands().exists(entryKey("r"))).isZero();
        assertThat(cache.stats().staleFillsPrevented()).isEqualTo(1);
        assertThat(cache.get("r")).contains("new");
    }

    @Test
    void fillThatBeganBeforeAPrefixInvalidationNeverLandsAfterIt() throws Exception {
        Redkit redkit = redkit();
        int keys = 400;
        CountDownLatch allLoading = new CountDownLatch(keys);
        AtomicBoolean invalidating = new AtomicBoolean();
        CacheAside<String, String> cache = cache(redkit, b -> b.keyParts(id -> List.of("p", id))
                .fillWait(Duration.ZERO).loader(id -> {
                    allLoading.countDown();
                    // Land as the scan runs: the loads return one by one once the invalidation has begun.
                    await().atMost(Duration.ofSeconds(30)).untilTrue(invalidating);
                    return Optional.of("stale-" + id);
                }));
        // A bulk of unrelated entries under the same prefix, so the scans have many pages to walk.
        List<String> filler = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            filler.add("f" + i);
            source.rows.put("f" + i, "v");
        }
        CacheAside<String, String> warm = cache(redkit(), b -> b.keyParts(id -> List.of("p", id)));
        warm.getAll(filler);
        ExecutorService readers = Executors.newFixedThreadPool(keys);
        try {
            List<CompletableFuture<Optional<String>>> fills = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                String id = "k" + i;
                fills.add(CompletableFuture.supplyAsync(() -> cache.get(id), readers));
            }
            assertThat(allLoading.await(30, TimeUnit.SECONDS)).isTrue();

            invalidating.set(true);
            cache.invalidateByPrefix("p");
            CompletableFuture.allOf(fills.toArray(new CompletableFuture[0])).get(30, TimeUnit.SECONDS);
        } finally {
            readers.shutdownNow();
        }

        List<String> survivors = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            String key = io.redkit.KeySchema.of("cache." + name).key("p", "k" + i);
            if (redkit.commands().exists(key) == 1) {
                survivors.add(key);
            }
        }
        System.out.printf("[figures] %s %d fills begun before a prefix invalidation: %d landed after it%n",
                getClass().getSimpleName(), keys, survivors.size());
        assertThat(survivors).as("entries of fills that began before the invalidation").isEmpty();
    }

    @Test
    void loaderThatAsksForItsOwnKeyGetsAnErrorNotADeadlock() {
        AtomicReference<CacheAside<String, String>> self = new AtomicReference<>();
        CacheAside<String, String> cache = cache(redkit(), b -> b.loader(id -> self.get().get(id)));
        self.set(cache);
        CompletableFuture<Optional<String>> read = CompletableFuture.supplyAsync(() -> cache.get("loop"));

        assertThat(read).failsWithin(Duration.ofSeconds(5)).withThrowableThat().havingCause()
                .isInstanceOf(IllegalStateException.class).withMessageContaining("recursive load");
        self.set(null);
    }

    @Test
    void keyOfAnotherTypeIsOverwrittenInsteadOfLoadingForever() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit);
        source.rows.put("w", "value");
        redkit.commands().hset(entryKey("w"), Map.of("left", "by an old deploy".getBytes(StandardCharsets.UTF_8)));

        assertThat(cache.get("w")).contains("value");
        assertThat(cache.get("w")).contains("value");
        assertThat(cache.get("w")).contains("value");
        assertThat(source.loads.get()).as("loads: the first read repaired the entry").isEqualTo(1);
        assertThat(redkit.commands().get(entryKey("w")).orElseThrow()).startsWith((byte) 'r', (byte) 'k');
        assertThat(cache.health().isHealthy()).isTrue();
        assertThat(redkit.meters().get("redkit.cache.errors").tag("cache", name).tag("kind", "wrongtype")
                .counter().count()).isEqualTo(1);

        redkit.commands().delete(entryKey("x"));
        redkit.commands().sadd(entryKey("x"), "a set");
        source.rows.put("x", "other");
        assertThat(cache.getAll(List.of("x"))).containsEntry("x", "other");
        assertThat(cache.get("x")).contains("other");
        assertThat(source.loads.get() + source.batchLoads.get()).isEqualTo(2);
    }

    @Test
    void batchLoaderReturningNullIsTheSameErrorFromGetAndGetAll() {
        CacheAside<String, String> cache = RedisCache.<String, String>builder(redkit()).name(name)
                .valueType(String.class).batchLoader(ids -> null).build();
        caches.add(cache);
        assertThatThrownBy(() -> cache.get("a")).isInstanceOf(CacheLoadException.class)
                .hasMessageContaining("returned null");
        assertThatThrownBy(() -> cache.getAll(List.of("a", "b"))).isInstanceOf(CacheLoadException.class)
                .hasMessageContaining("returned null");
    }

    @Test
    void oversizedValueUnderFailFailsOnlyItsOwnKeyInGetAll() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.compressAbove(1024)
                .maxValueBytes(64 * 1024, LargeValuePolicy.FAIL));
        source.rows.put("small", "fits");
        source.rows.put("huge", CacheFixture.randomText(100_000));

        Map<String, String> found = cache.getAll(List.of("small", "huge"));
        assertThat(found).containsExactly(Map.entry("small", "fits"));
        assertThat(redkit.commands().exists(entryKey("small"))).isEqualTo(1);
        assertThat(redkit.commands().exists(entryKey("huge"))).isZero();
        assertThat(redkit.commands().exists(entryKey("huge") + ":fill")).as("lease given back").isZero();
        assertThatThrownBy(() -> cache.get("huge")).isInstanceOf(ValueTooLargeException.class);
    }

    @Test
    void getAllWaitsForAnotherInstancesFillInsteadOfLoadingTheKeyAgain() throws Exception {
        Map<String, Integer> loadsById = new ConcurrentHashMap<>();
        CountDownLatch aLoading = new CountDownLatch(1);
        source.rows.put("shared", "v");
        source.rows.put("own", "w");
        CacheAside<String, String> a = cache(redkit(), b -> b.fillWait(Duration.ofSeconds(3))
                .fillLease(Duration.ofSeconds(10)).loader(id -> {
                    loadsById.merge(id, 1, Integer::sum);
                    aLoading.countDown();
                    Thread.sleep(300); // a slow query: another instance's batch arrives meanwhile
                    return source.load(id);
                }));
        CacheAside<String, String> b = cache(redkit(), c -> c.fillWait(Duration.ofSeconds(3))
                .fillLease(Duration.ofSeconds(10)).batchLoader(ids -> {
                    ids.forEach(id -> loadsById.merge(id, 1, Integer::sum));
                    return source.loadAll(ids);
                }));
        CompletableFuture<Optional<String>> first = CompletableFuture.supplyAsync(() -> a.get("shared"));
        assertThat(aLoading.await(5, TimeUnit.SECONDS)).isTrue();

        assertThat(b.getAll(List.of("shared", "own"))).containsEntry("shared", "v").containsEntry("own", "w");
        assertThat(first.get(5, TimeUnit.SECONDS)).contains("v");
        assertThat(loadsById).containsEntry("shared", 1).containsEntry("own", 1);
        assertThat(b.stats().fillWaits()).isEqualTo(1);
    }

    @Test
    void secondOpenCacheOfOneNameOnOneRedkitIsRefused() {
        Redkit redkit = redkit();
        CacheAside<String, String> first = cache(redkit);
        assertThatThrownBy(() -> cache(redkit)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already open").hasMessageContaining(name);
        first.get("a");
        first.close();
        CacheAside<String, String> again = cache(redkit);
        assertThat(again.stats().loads()).as("a fresh cache counts from zero").isZero();
    }

    @Test
    void nearCacheDropsItsCopyEvenWhenTheUnlinkFails() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        source.rows.put("u", "v1");
        assertThat(cache.get("u")).contains("v1");
        assertThat(cache.get("u")).contains("v1");
        long nearHits = cache.stats().nearHits();
        assertThat(nearHits).isEqualTo(1);

        deployment.pauseServerOf(entryKey("u"));
        assertThatThrownBy(() -> cache.invalidate("u")).isInstanceOf(RedkitException.class);
        deployment.healAll();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> "PONG".equals(redkit.commands().ping()));

        cache.get("u");
        assertThat(cache.stats().nearHits()).as("the stale near copy was dropped locally").isEqualTo(nearHits);
    }

    @Test
    void sequenceGapAcrossAReconnectStillFlushesTheNearCache() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        DefaultCacheAside<String, String> inner = (DefaultCacheAside<String, String>) cache;
        String channel = "redkit.cache.invalidations:cache." + name;
        redkit.commands().publish(channel, "1 peer 1\nunrelated".getBytes(StandardCharsets.UTF_8));
        source.rows.put("q", "v1");
        assertThat(cache.get("q")).contains("v1");
        long flushes = inner.nearCacheFlushes();

        deployment.onEveryDataNode("CLIENT", "KILL", "TYPE", "pubsub");
        await().atMost(Duration.ofSeconds(10)).until(() -> inner.nearCacheFlushes() == flushes + 1);
        assertThat(redkit.pubSub().isConnected()).as("re-subscribed when the reconnect flush ran").isTrue();
        // The peer's message 2 went out while this instance was away; its message 3 shows the gap.
        redkit.commands().publish(channel, "1 peer 3\nunrelated".getBytes(StandardCharsets.UTF_8));
        await().atMost(Duration.ofSeconds(5)).until(() -> inner.nearCacheFlushes() == flushes + 2);
    }

    @Test
    void concurrentInvalidationsFromOneInstanceCauseNoGapFlushesElsewhere() throws Exception {
        CacheAside<String, String> a = cache(redkit(), b -> b.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        CacheAside<String, String> b = cache(redkit(), c -> c.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        DefaultCacheAside<String, String> watcher = (DefaultCacheAside<String, String>) a;
        source.rows.put("seen", "v");
        source.rows.put("last", "v");
        assertThat(a.get("seen")).contains("v");
        assertThat(a.get("last")).contains("v");
        long flushesBefore = watcher.nearCacheFlushes();

        concurrently(8, i -> {
            for (int n = 0; n < 200; n++) {
                b.invalidate("k" + i + "-" + n);
            }
            return null;
        });
        b.invalidate("last");
        // Messages arrive in order: once "last" left a's near cache, every invalidation before it was handled.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            long hits = a.stats().nearHits();
            a.get("last");
            return a.stats().nearHits() == hits;
        });
        assertThat(watcher.nearCacheFlushes() - flushesBefore).as("flushes caused by 1601 invalidations")
                .isZero();
        long hits = a.stats().nearHits();
        assertThat(a.get("seen")).contains("v");
        assertThat(a.stats().nearHits()).as("an untouched entry is still near").isEqualTo(hits + 1);
    }

    @Test
    void breakerProbesInTheBackgroundAndClosesWithinASecondOfRedisAnswering() throws Exception {
        CacheAside<String, String> cache = cache(redkit(), b -> b.breakerWindow(4));
        source.rows.put("b", "from-source");
        assertThat(cache.get("b")).contains("from-source");
        // Every state the health passes through, sampled on a thread of its own: on Cluster the heal below also
        // waits for the cluster to settle, and the breaker may close before it returns.
        List<CacheHealth.Breaker> seen = new CopyOnWriteArrayList<>();
        AtomicBoolean sampling = new AtomicBoolean(true);
        AtomicReference<Long> closedAt = new AtomicReference<>();
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                CacheHealth.Breaker state = cache.health().breaker();
                if (seen.isEmpty() || seen.get(seen.size() - 1) != state) {
                    seen.add(state);
                    if (state == CacheHealth.Breaker.CLOSED && seen.size() > 1) {
                        closedAt.compareAndSet(null, System.nanoTime());
                    }
                }
                LockSupport.parkNanos(200_000); // sampling a state that lasts hundreds of ms, not waiting for it
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        try {
            deployment.pauseServerOf(entryKey("b"));
            long pausedAt = System.nanoTime();
            while (cache.health().isHealthy()) {
                assertThat(cache.get("b")).contains("from-source");
            }
            long openedAt = System.nanoTime();
            long slowest = 0;
            while (System.nanoTime() - openedAt < TimeUnit.SECONDS.toNanos(2)) {
                long start = System.nanoTime();
                assertThat(cache.get("b")).contains("from-source");
                slowest = Math.max(slowest, System.nanoTime() - start);
            }
            long resumedAt = System.nanoTime();
            deployment.healAll();
            while (closedAt.get() == null && System.nanoTime() - resumedAt < TimeUnit.SECONDS.toNanos(10)) {
                long start = System.nanoTime();
                assertThat(cache.get("b")).contains("from-source");
                slowest = Math.max(slowest, System.nanoTime() - start);
            }
            long closedAfter = closedAt.get() == null ? Long.MAX_VALUE : closedAt.get() - resumedAt;
            System.out.printf("[figures] %s breaker opened %d ms into a pause; slowest read while open or recovering"
                    + " %.2f ms; closed %d ms after Redis was resumed (probes every 200 ms, 3 to close)%n",
                    getClass().getSimpleName(), (openedAt - pausedAt) / 1_000_000, slowest / 1e6,
                    closedAfter / 1_000_000);
            assertThat(Duration.ofNanos(closedAfter)).as("closed after Redis answered")
                    .isLessThan(Duration.ofMillis(1500));
            assertThat(Duration.ofNanos(slowest)).as("a user read paid a timeout").isLessThan(Duration.ofMillis(150));
        } finally {
            sampling.set(false);
            sampler.join();
        }
        assertThat(seen).containsSubsequence(CacheHealth.Breaker.CLOSED, CacheHealth.Breaker.OPEN,
                CacheHealth.Breaker.HALF_OPEN, CacheHealth.Breaker.CLOSED);
        assertThat(cache.health()).isEqualTo(new CacheHealth(CacheHealth.Status.HEALTHY,
                CacheHealth.Breaker.CLOSED));
        // On Cluster the pause may have failed the master over; the first read can meet the new master's connection
        // still opening (and go to the source). Redis serves the hits again right after.
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            long loadsBefore = source.loads.get();
            cache.get("b");
            return source.loads.get() == loadsBefore;
        });
    }

    @Test
    void aCacheHitIsExactlyOneGet() {
        CacheAside<String, String> cache = cache(redkit());
        source.rows.put("h", "value");
        assertThat(cache.get("h")).contains("value");
        try (CommandLog log = CommandLog.start(deployment.masters())) {
            for (int i = 0; i < 100; i++) {
                assertThat(cache.get("h")).contains("value");
            }
            assertThat(log.dataCommandsOf(clientName)).as("commands the server ran for 100 hits")
                    .isEqualTo(Map.of("get", 100L));
        }
    }
}
