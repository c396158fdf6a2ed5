package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.Counter;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.Deployment;
import io.redkit.testing.PostgresExtension;

/**
 * The seeds' cache claims, pinned on every topology: one load per stampede, reads answered with Redis gone and
 * no timeout paid once the breaker is open, invalidation after commit, corrupt entries reloaded, negative
 * caching, jitter, near-cache invalidation, and bad input. The after-commit claim runs against a real
 * PostgreSQL ({@link PostgresExtension}), in a schema of its own per test class.
 */
abstract class CacheContract extends CacheFixture {

    @RegisterExtension
    static final PostgresExtension pg = PostgresExtension.create();

    CacheContract(Deployment deployment) {
        super(deployment);
    }

    @Test
    void hundredConcurrentMissesLoadOnce() throws Exception {
        CacheAside<String, String> cache = cache(redkit());
        source.rows.put("42", "answer");
        source.latencyNanos = TimeUnit.MILLISECONDS.toNanos(100);

        List<Optional<String>> results = concurrently(100, () -> cache.get("42"));

        assertThat(results).hasSize(100).allSatisfy(r -> assertThat(r).contains("answer"));
        System.out.printf("[figures] %s 100 concurrent misses -> %d load(s)%n", getClass().getSimpleName(),
                source.loads.get());
        assertThat(source.loads.get()).isEqualTo(1);
        assertThat(cache.stats().loads()).isEqualTo(1);
    }

    @Test
    void fourInstancesTimesTwoHundredFiftyMissesLoadOnceInTotal() throws Exception {
        List<CacheAside<String, String>> instances = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            instances.add(cache(redkit(), b -> b.fillWait(Duration.ofSeconds(4)).fillLease(Duration.ofSeconds(10))));
        }
        source.rows.put("hot", "value");
        source.latencyNanos = TimeUnit.MILLISECONDS.toNanos(150);

        List<Optional<String>> results = concurrently(1000, i -> instances.get(i % 4).get("hot"));

        assertThat(results).hasSize(1000).allSatisfy(r -> assertThat(r).contains("value"));
        System.out.printf("[figures] %s 4 instances x 250 concurrent misses -> %d load(s) in total%n",
                getClass().getSimpleName(), source.loads.get());
        assertThat(source.loads.get()).isEqualTo(1);
    }

    @Test
    void pausedRedisEveryReadServedAndOpenBreakerPaysNoTimeout() {
        Redkit redkit = redkit();
        // Background probes far apart, so that every command counted below would be a user read's.
        CacheAside<String, String> cache = cache(redkit, b -> b.breakerWindow(4)
                .breakerProbes(Duration.ofSeconds(10), 3));
        source.rows.put("p", "from-source");
        assertThat(cache.get("p")).contains("from-source");
        deployment.pauseServerOf(entryKey("p"));

        int reads = 0;
        while (cache.health().isHealthy()) {
            assertThat(cache.get("p")).contains("from-source");
            assertThat(++reads).as("reads before the breaker opened").isLessThan(20);
        }
        double failuresWhenOpen = commandFailures(redkit);
        long loadsWhenOpen = source.loads.get();
        long slowest = 0;
        for (int i = 0; i < 50; i++) {
            long start = System.nanoTime();
            assertThat(cache.get("p")).contains("from-source");
            slowest = Math.max(slowest, System.nanoTime() - start);
        }
        System.out.printf("[figures] %s breaker opened after %d timed-out reads; slowest read while open %.2f ms"
                + " (command timeout 300 ms)%n", getClass().getSimpleName(), reads, slowest / 1e6);
        assertThat(cache.health()).isEqualTo(new CacheHealth(CacheHealth.Status.DEGRADED, CacheHealth.Breaker.OPEN));
        assertThat(commandFailures(redkit)).as("Redis commands attempted while open").isEqualTo(failuresWhenOpen);
        assertThat(source.loads.get() - loadsWhenOpen).isEqualTo(50);
        assertThat(Duration.ofNanos(slowest)).isLessThan(Duration.ofMillis(300));
        assertThat(redkit.meters().get("redkit.cache.breaker.state").tag("cache", name).gauge().value())
                .isEqualTo(2.0);
    }

    @Test
    void stoppedRedisReadsServedThenBreakerRecoversThroughHalfOpen() {
        CacheAside<String, String> cache = cache(redkit(), b -> b.breakerWindow(4));
        source.rows.put("s", "v1");
        assertThat(cache.get("s")).contains("v1");
        deployment.killServerOf(entryKey("s"));

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
            assertThat(cache.get("s")).contains("v1");
            assertThat(cache.health().status()).isEqualTo(CacheHealth.Status.DEGRADED);
        });
        assertThat(cache.stats().errors()).isPositive();

        deployment.healAll();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            assertThat(cache.get("s")).contains("v1");
            assertThat(cache.health().status()).isEqualTo(CacheHealth.Status.HEALTHY);
        });
    }

    @Test
    void updateThenInvalidateAfterCommitNextReadReturnsTheNewValue() throws Exception {
        String table = "cache_" + getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + "_" + name;
        try (Connection db = pg.connection()) {
            try (Statement ddl = db.createStatement()) {
                ddl.execute("CREATE TABLE " + table + " (id text PRIMARY KEY, name text NOT NULL)");
                ddl.execute("INSERT INTO " + table + " VALUES ('p1', 'old')");
            }
            try {
                Redkit redkit = redkit();
                CacheAside<String, String> cache = cache(redkit, b -> b.loader(id -> selectName(db, table, id)));
                assertThat(cache.get("p1")).contains("old");

                db.setAutoCommit(false);
                AfterCommitActions rolledBack = new AfterCommitActions();
                update(db, table, "p1", "never");
                cache.invalidateAfterCommit(rolledBack, List.of("p1"));
                db.rollback();
                rolledBack.rolledBack();
                assertThat(redkit.commands().exists(entryKey("p1"))).as("entry kept after rollback").isEqualTo(1);

                AfterCommitActions tx = new AfterCommitActions();
                update(db, table, "p1", "new");
                cache.invalidateAfterCommit(tx, List.of("p1"));
                assertThat(redkit.commands().exists(entryKey("p1"))).as("not invalidated before commit").isEqualTo(1);
                db.commit();
                tx.committed();
                db.setAutoCommit(true);

                assertThat(cache.get("p1")).contains("new");
            } finally {
                db.setAutoCommit(true);
                try (Statement ddl = db.createStatement()) {
                    ddl.execute("DROP TABLE " + table);
                }
            }
        }
    }

    private static Optional<String> selectName(Connection db, String table, String id) throws Exception {
        // A connection of its own per load would be the real thing; one shared connection keeps the test small,
        // and reads through it see only committed rows once autocommit is back on.
        synchronized (db) {
            try (PreparedStatement q = db.prepareStatement("SELECT name FROM " + table + " WHERE id = ?")) {
                q.setString(1, id);
                try (ResultSet rs = q.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
                }
            }
        }
    }

    private static void update(Connection db, String table, String id, String value) throws Exception {
        try (PreparedStatement u = db.prepareStatement("UPDATE " + table + " SET name = ? WHERE id = ?")) {
            u.setString(1, value);
            u.setString(2, id);
            assertThat(u.executeUpdate()).isEqualTo(1);
        }
    }

    @Test
    void loadThatBeganBeforeAnInvalidationDoesNotWriteItsStaleValue() throws Exception {
        Redkit redkit = redkit();
        CountDownLatch loading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        source.rows.put("r", "old");
        CacheAside<String, String> cache = cache(redkit, b -> b.loader(id -> {
            Optional<String> row = source.load(id);
            loading.countDown();
            release.await();
            return row;
        }));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Optional<String>> slow = pool.submit(() -> cache.get("r"));
            assertThat(loading.await(5, TimeUnit.SECONDS)).isTrue();
            source.rows.put("r", "new");
            cache.invalidate("r");
            release.countDown();

            assertThat(slow.get(5, TimeUnit.SECONDS)).contains("old");
            assertThat(redkit.commands().exists(entryKey("r"))).isZero();
            assertThat(cache.stats().staleFillsPrevented()).isEqualTo(1);
            assertThat(cache.get("r")).contains("new");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void corruptEntryIsReloadedAndOverwritten() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit);
        source.rows.put("c", "good");
        redkit.commands().set(entryKey("c"), "not an envelope".getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(1));

        assertThat(cache.get("c")).contains("good");
        assertThat(cache.get("c")).contains("good");
        assertThat(source.loads.get()).isEqualTo(1);
        assertThat(redkit.commands().get(entryKey("c")).orElseThrow()).startsWith((byte) 'r', (byte) 'k');
        assertThat(redkit.meters().get("redkit.cache.errors").tag("kind", "decode").counter().count()).isEqualTo(1);
    }

    @Test
    void entryOfAnotherSchemaVersionIsAMissAndIsOverwritten() {
        Redkit redkit = redkit();
        CacheAside<String, String> v1 = cache(redkit);
        // The next deploy, in another process: same cache name, new schema version.
        CacheAside<String, String> v2 = cache(redkit(), b -> b.schemaVersion(2));
        source.rows.put("s", "row");
        assertThat(v1.get("s")).contains("row");
        assertThat(v2.get("s")).contains("row");
        assertThat(v2.get("s")).contains("row");
        assertThat(source.loads.get()).isEqualTo(2);
        assertThat(v2.stats().hits()).isEqualTo(1);
    }

    @Test
    void negativeCachingStopsRepeatedLoadsOfAMissingId() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.negativeTtl(Duration.ofSeconds(40)));
        for (int i = 0; i < 10; i++) {
            assertThat(cache.get("nobody")).isEmpty();
        }
        assertThat(source.loads.get()).isEqualTo(1);
        assertThat(redkit.commands().ttl(entryKey("nobody")).orElseThrow()).isLessThanOrEqualTo(Duration.ofSeconds(40));

        CacheAside<String, String> noNegative = cache(redkit(), b -> b.negativeTtl(Duration.ZERO).schemaVersion(3));
        assertThat(noNegative.get("nobody2")).isEmpty();
        assertThat(noNegative.get("nobody2")).isEmpty();
        assertThat(source.loads.get()).isEqualTo(3);
    }

    @Test
    void jitterSpreadsExpiryOfKeysWrittenTogether() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.ttl(Duration.ofSeconds(100)).ttlJitter(0.5));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ids.add("j" + i);
            source.rows.put("j" + i, "v" + i);
        }
        assertThat(cache.getAll(ids)).hasSize(50);
        List<Long> ttls = ids.stream()
                .map(id -> redkit.commands().ttl(entryKey(id)).orElseThrow().toMillis()).toList();
        long min = ttls.stream().mapToLong(Long::longValue).min().orElseThrow();
        long max = ttls.stream().mapToLong(Long::longValue).max().orElseThrow();
        System.out.printf("[figures] %s 50 keys written together, ttl 100 s jitter 0.5: expiry spread %d ms%n",
                getClass().getSimpleName(), max - min);
        assertThat(ttls).allSatisfy(t -> assertThat(t).isBetween(49_000L, 100_000L));
        assertThat(max - min).isGreaterThan(10_000L);
        assertThat(ttls.stream().distinct().count()).isGreaterThan(40);
    }

    @Test
    void getAllIsOneBatchLoadForTheMissesAndWritesThemBack() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add("b" + i);
            source.rows.put("b" + i, "v" + i);
        }
        assertThat(cache.get("b0")).contains("v0");
        assertThat(cache.get("b1")).contains("v1");
        ids.add("absent");

        assertThat(cache.getAll(ids)).hasSize(20).containsEntry("b7", "v7").doesNotContainKey("absent");
        assertThat(source.batchLoads.get()).isEqualTo(1);
        for (String id : ids) {
            assertThat(redkit.commands().exists(entryKey(id))).as(id).isEqualTo(1);
        }
        assertThat(cache.getAll(ids)).hasSize(20);
        assertThat(source.batchLoads.get()).isEqualTo(1);
        assertThat(source.loads.get()).isEqualTo(2);
    }

    @Test
    void getAllAnswersARepeatedKeyOnceInTheOrderItFirstCameAndLoadsItOnce() {
        CacheAside<String, String> cache = cache(redkit());
        for (int size : new int[] {5, 40}) { // a few keys are compared one by one, more are hashed
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                ids.add("r" + size + "-" + i);
                source.rows.put("r" + size + "-" + i, "v" + i);
            }
            List<String> repeated = new ArrayList<>(ids);
            repeated.addAll(List.of(ids.get(3), ids.get(0), ids.get(3)));
            java.util.Collections.swap(repeated, 1, repeated.size() - 1); // ids[3] now comes before ids[1]
            List<String> order = new ArrayList<>(new java.util.LinkedHashSet<>(repeated));
            int loadsBefore = source.loads.get() + source.batchLoads.get();

            assertThat(cache.getAll(repeated).keySet()).as("loaded, %d keys", size).containsExactlyElementsOf(order);
            assertThat(cache.getAll(repeated).keySet()).as("from Redis, %d keys", size).containsExactlyElementsOf(order);
            assertThat(cache.getAll(repeated)).hasSize(size).containsEntry(ids.get(3), "v3");
            assertThat(source.loads.get() + source.batchLoads.get()).as("loads").isEqualTo(loadsBefore + 1);
        }
    }

    @Test
    void getAllTakesTheKeysTheCollectionIteratesWhateverItsSizeSaid() {
        CacheAside<String, String> cache = cache(redkit());
        List<String> ids = List.of("s1", "s2", "s3");
        ids.forEach(id -> source.rows.put(id, "v-" + id));
        // A concurrent collection's size() may be stale by the time it is iterated.
        java.util.Collection<String> stale = new java.util.AbstractCollection<>() {
            @Override
            public java.util.Iterator<String> iterator() {
                return ids.iterator();
            }

            @Override
            public int size() {
                return 1;
            }
        };

        assertThat(cache.getAll(stale)).containsOnlyKeys(ids);
        assertThat(cache.getAll(stale)).containsEntry("s3", "v-s3");
    }

    @Test
    void earlyRefreshRecomputesAHotKeyBeforeItExpires() {
        MutableClock clock = new MutableClock();
        Redkit redkit = redkit(c -> c.clock(clock));
        CacheAside<String, String> cache = cache(redkit, b -> b.ttl(Duration.ofSeconds(60)).ttlJitter(0)
                // The refresh runs on the reading thread, so the test knows when it is done.
                .refreshExecutor(Runnable::run));
        source.rows.put("x", "v1");
        assertThat(cache.get("x")).contains("v1");
        for (int i = 0; i < 50; i++) {
            assertThat(cache.get("x")).contains("v1");
        }
        assertThat(source.loads.get()).isEqualTo(1);

        source.rows.put("x", "v2");
        clock.advance(Duration.ofSeconds(60));
        assertThat(cache.get("x")).contains("v1");
        assertThat(cache.get("x")).contains("v2");
        assertThat(cache.get("x")).contains("v2");
        assertThat(source.loads.get()).isEqualTo(2);
        assertThat(cache.stats().earlyRefreshes()).isEqualTo(1);
    }

    @Test
    void nearCacheSeesAnotherInstancesInvalidation() {
        CacheAside<String, String> a = cache(redkit(), b -> b.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        CacheAside<String, String> b = cache(redkit(), c -> c.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        source.rows.put("n", "v1");
        assertThat(a.get("n")).contains("v1");
        assertThat(a.get("n")).contains("v1");
        assertThat(a.stats().nearHits()).isEqualTo(1);

        source.rows.put("n", "v2");
        b.invalidate("n");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(a.get("n")).contains("v2"));
    }

    @Test
    void nearCacheIsFlushedOnReconnectBecauseInvalidationsMayHaveBeenMissed() {
        Redkit redkit = redkit();
        CacheAside<String, String> a = cache(redkit, b -> b.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        source.rows.put("m", "v1");
        assertThat(a.get("m")).contains("v1");
        source.rows.put("m", "v2");
        // A write that bypassed this cache's invalidation: only a flush can make the near copy go.
        redkit.commands().unlink(entryKey("m"));
        assertThat(a.get("m")).contains("v1");
        long nearHitsBefore = a.stats().nearHits();

        deployment.onEveryDataNode("CLIENT", "KILL", "TYPE", "pubsub");
        // Served from the near cache again (so re-subscribed), and no longer the stale copy (so flushed).
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(a.get("m")).contains("v2");
            assertThat(a.stats().nearHits()).isGreaterThan(nearHitsBefore);
        });
    }

    @Test
    void gapInInvalidationSequenceFlushesTheNearCache() {
        Redkit redkit = redkit();
        CacheAside<String, String> a = cache(redkit, b -> b.nearCache(1000, Duration.ofMinutes(5))
                .nearCacheInvalidation(NearCacheInvalidation.PUBSUB));
        source.rows.put("g", "v1");
        assertThat(a.get("g")).contains("v1");
        source.rows.put("g", "v2");
        redkit.commands().unlink(entryKey("g"));
        String channel = "redkit.cache.invalidations:cache." + name;
        redkit.commands().publish(channel, "1 peer 1\nunrelated".getBytes(StandardCharsets.UTF_8));
        assertThat(a.get("g")).contains("v1");
        // Message 2 of the peer never arrived.
        redkit.commands().publish(channel, "1 peer 3\nunrelated".getBytes(StandardCharsets.UTF_8));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(a.get("g")).contains("v2"));
    }

    @Test
    void prefixInvalidationEscapesGlobCharactersAndScansEveryMaster() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.keyParts(id -> List.of(id.split("/", -1))));
        List<String> ids = List.of("a*/1", "ab/1", "a?/1", "[a]/1", "t1/1", "t1/2", "t2/1");
        ids.forEach(id -> source.rows.put(id, "v"));
        assertThat(cache.getAll(ids)).hasSize(ids.size());
        KeyView keys = id -> redkit.commands().exists(io.redkit.KeySchema.of("cache." + name)
                .key(id.split("/", -1)));

        assertThat(cache.invalidateByPrefix("a*")).isEqualTo(1);
        assertThat(keys.count("a*/1")).isZero();
        assertThat(keys.count("ab/1") + keys.count("a?/1") + keys.count("[a]/1")).isEqualTo(3);

        assertThat(cache.invalidateByPrefix("t1")).isEqualTo(2);
        assertThat(keys.count("t1/1") + keys.count("t1/2")).isZero();
        assertThat(keys.count("t2/1")).isEqualTo(1);

        cache.invalidateByPrefix();
        for (String id : ids) {
            assertThat(keys.count(id)).as(id).isZero();
        }
    }

    @Test
    void badInputIsRefusedAsDocumented() {
        CacheAside<String, String> cache = cache(redkit());
        assertThatThrownBy(() -> cache.get(null)).isInstanceOf(NullPointerException.class).hasMessage("key");
        assertThatThrownBy(() -> cache.getAll(java.util.Arrays.asList("a", null)))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("null");
        assertThatThrownBy(() -> cache.invalidate((String) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> cache.invalidateByPrefix("a", null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(cache.invalidate(List.of())).isZero();
        assertThat(cache.getAll(List.of())).isEmpty();
    }

    @Test
    void largeValuesAreCompressedAndThoseAboveTheLimitSkippedOrRefused() {
        Redkit redkit = redkit();
        CacheAside<String, String> skip = cache(redkit, b -> b.compressAbove(1024)
                .maxValueBytes(64 * 1024, LargeValuePolicy.SKIP));
        String compressible = "x".repeat(200_000);
        String random = randomText(100_000);
        source.rows.put("big", compressible);
        source.rows.put("huge", random);

        assertThat(skip.get("big")).contains(compressible);
        long stored = redkit.commands().execute("STRLEN", io.redkit.Idempotency.IDEMPOTENT,
                c -> c.strlen(entryKey("big")));
        assertThat(stored).isLessThan(64 * 1024);
        assertThat(skip.get("big")).contains(compressible);
        assertThat(source.loads.get()).isEqualTo(1);

        assertThat(skip.get("huge")).contains(random);
        assertThat(redkit.commands().exists(entryKey("huge"))).isZero();
        assertThat(redkit.meters().get("redkit.cache.large").tag("action", "skipped").counter().count()).isEqualTo(1);
        assertThat(redkit.meters().get("redkit.cache.large").tag("action", "compressed").counter().count())
                .isGreaterThanOrEqualTo(1);

        CacheAside<String, String> fail = cache(redkit(), b -> b.schemaVersion(5).compressAbove(1024)
                .maxValueBytes(64 * 1024, LargeValuePolicy.FAIL));
        assertThatThrownBy(() -> fail.get("huge")).isInstanceOfSatisfying(ValueTooLargeException.class,
                e -> assertThat(e.limit()).isEqualTo(64 * 1024));
        // The lease was given back: the next miss may try again at once.
        assertThat(redkit.commands().exists(entryKey("huge") + ":fill")).isZero();
    }

}
