package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.redkit.Redkit;
import io.redkit.testing.CommandLog;
import io.redkit.testing.Deployment;

/**
 * {@code format(PLAIN_JSON)} on every topology: what lands in Redis is exactly the codec's JSON (and JSON
 * {@code null} for "not found"), JSON another process wrote is a hit, anything else a counted miss that is
 * overwritten, TTL and jitter as in the envelope, and a hit's PTTL travels with its GET.
 */
abstract class PlainJsonContract extends CacheFixture {

    PlainJsonContract(Deployment deployment) {
        super(deployment);
    }

    private CacheAside<String, String> plain(Redkit redkit) {
        return cache(redkit, b -> b.format(CacheFormat.PLAIN_JSON));
    }

    private String stored(Redkit redkit, String id) {
        return redkit.commands().getString(entryKey(id)).orElse(null);
    }

    @Test
    void theEntryIsExactlyTheCodecsJsonAndNotFoundIsJsonNullWithTheNegativeTtl() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.format(CacheFormat.PLAIN_JSON)
                .negativeTtl(Duration.ofSeconds(40)));
        source.rows.put("a", "caf\u00e9 \"quoted\"");

        assertThat(cache.get("a")).contains("caf\u00e9 \"quoted\"");
        assertThat(stored(redkit, "a")).isEqualTo("\"caf\u00e9 \\\"quoted\\\"\"");
        assertThat(cache.get("nobody")).isEmpty();
        assertThat(stored(redkit, "nobody")).isEqualTo("null");
        assertThat(redkit.commands().ttl(entryKey("nobody")).orElseThrow()).isLessThanOrEqualTo(Duration.ofSeconds(40));

        assertThat(cache.get("a")).contains("caf\u00e9 \"quoted\"");
        assertThat(cache.get("nobody")).isEmpty();
        assertThat(source.loads.get()).isEqualTo(2);
    }

    @Test
    void jsonAnotherProcessWroteIsAHitAndItsNullIsNotFoundWithoutALoad() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = plain(redkit);
        redkit.commands().set(entryKey("f"), "\"from elsewhere\"".getBytes(StandardCharsets.UTF_8),
                Duration.ofMinutes(1));
        redkit.commands().set(entryKey("g"), " null\n".getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(1));
        source.rows.put("g", "would be loaded");

        assertThat(cache.get("f")).contains("from elsewhere");
        assertThat(cache.get("g")).isEmpty();
        assertThat(source.loads.get()).isZero();
        assertThat(cache.stats().hits()).isEqualTo(2);
    }

    @Test
    void aFillDoesNotOverwriteWhatAnotherClientWroteWhileItLoaded() throws Exception {
        Redkit redkit = redkit();
        CountDownLatch loading = new CountDownLatch(1);
        CountDownLatch written = new CountDownLatch(1);
        CacheAside<String, String> cache = cache(redkit, b -> b.format(CacheFormat.PLAIN_JSON).loader(id -> {
            loading.countDown();
            assertThat(written.await(10, TimeUnit.SECONDS)).isTrue();
            return Optional.of("read before the write");
        }));
        CompletableFuture<Optional<String>> read = CompletableFuture.supplyAsync(() -> cache.get("w"));
        assertThat(loading.await(10, TimeUnit.SECONDS)).isTrue();

        // A service in another language updates its row and writes the entry; it knows nothing of redkit's lease.
        deployment.serverOf(entryKey("w")).command("SET", entryKey("w"), "\"written meanwhile\"");
        written.countDown();

        assertThat(read.get(10, TimeUnit.SECONDS)).as("the caller gets its own load").contains("read before the write");
        assertThat(stored(redkit, "w")).isEqualTo("\"written meanwhile\"");
        assertThat(cache.stats().staleFillsPrevented()).isEqualTo(1);
        assertThat(cache.get("w")).contains("written meanwhile");
    }

    @Test
    void aForeignValueThatIsNotJsonOfTheTypeIsACountedMissAndIsOverwritten() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = plain(redkit);
        source.rows.put("c", "good");
        redkit.commands().set(entryKey("c"), "not json".getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(1));

        assertThat(cache.get("c")).contains("good");
        assertThat(cache.get("c")).contains("good");
        assertThat(source.loads.get()).isEqualTo(1);
        assertThat(stored(redkit, "c")).isEqualTo("\"good\"");
        assertThat(redkit.meters().get("redkit.cache.errors").tag("kind", "decode").counter().count()).isEqualTo(1);
    }

    @Test
    void getAllWritesPlainJsonWithTheTtlSpreadByJitter() {
        Redkit redkit = redkit();
        CacheAside<String, String> cache = cache(redkit, b -> b.format(CacheFormat.PLAIN_JSON)
                .ttl(Duration.ofSeconds(100)).ttlJitter(0.5));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ids.add("j" + i);
            source.rows.put("j" + i, "v" + i);
        }
        assertThat(cache.getAll(ids)).hasSize(50).containsEntry("j7", "v7");
        assertThat(stored(redkit, "j7")).isEqualTo("\"v7\"");
        List<Long> ttls = ids.stream()
                .map(id -> redkit.commands().ttl(entryKey(id)).orElseThrow().toMillis()).toList();
        assertThat(ttls).allSatisfy(t -> assertThat(t).isBetween(49_000L, 100_000L));
        assertThat(ttls.stream().distinct().count()).isGreaterThan(40);
        assertThat(cache.getAll(ids)).hasSize(50);
        assertThat(source.batchLoads.get()).isEqualTo(1);
    }

    @Test
    void aHitReadsThePttlWithItsGetAndOnlyTheGetWithEarlyRefreshOff() {
        Redkit redkit = redkit();
        CacheAside<String, String> xfetch = plain(redkit);
        source.rows.put("h", "hot");
        assertThat(xfetch.get("h")).contains("hot");
        try (CommandLog log = CommandLog.start(deployment.masters())) {
            assertThat(xfetch.get("h")).contains("hot");
            assertThat(log.dataCommandsOf(clientName)).isEqualTo(Map.of("get", 1L, "pttl", 1L));
        }
        xfetch.close();

        CacheAside<String, String> noXfetch = cache(redkit, b -> b.format(CacheFormat.PLAIN_JSON)
                .earlyRefreshBeta(0));
        try (CommandLog log = CommandLog.start(deployment.masters())) {
            assertThat(noXfetch.get("h")).contains("hot");
            assertThat(log.dataCommandsOf(clientName)).isEqualTo(Map.of("get", 1L));
        }
        assertThat(source.loads.get()).isEqualTo(1);
    }
}
