package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisSentinelExtension;
import io.redkit.testing.RedisServer;
import io.redkit.testing.ReplicationCut;

/**
 * A committed update is not undone by a failover: product 42 is cached at price 100 on a Sentinel group, the
 * master's replication link is cut, the price is updated to 1 and invalidated after commit (the master takes the
 * UNLINK, its replica never gets it), and the master is killed: the replica is promoted with the old entry. This
 * instance never serves 100, through the failover and after; a second instance serves it only until the UNLINK
 * this one sends again lands on the new master (the window the figures give), not for the TTL.
 */
class SentinelInvalidationFailoverIT extends InvalidationFixture {

    @RegisterExtension
    static final RedisSentinelExtension sentinel = RedisSentinelExtension.create();

    @Override
    String url() {
        return sentinel.group().url();
    }

    @Test
    void anInvalidationOnlyTheOldMasterTookIsNotUndoneByTheFailover() throws Exception {
        survivesTheFailover("invalidateAfterCommit", here -> here.invalidateAfterCommit(Runnable::run, List.of("42")));
    }

    @Test
    void anInvalidationByPrefixOnlyTheOldMasterTookIsNotUndoneByTheFailover() throws Exception {
        // With the replica cut, each page waits 1 s for a confirmation that does not come, and stays pending.
        survivesTheFailover("invalidateByPrefix", here -> assertThat(here.invalidateByPrefix()).isPositive());
    }

    private void survivesTheFailover(String how, java.util.function.Consumer<CacheAside<String, String>> invalidate)
            throws Exception {
        CacheAside<String, String> here = instance("here");
        CacheAside<String, String> other = instance("other");
        source.rows.put("42", "100");
        assertThat(here.get("42")).contains("100");
        assertThat(other.get("42")).contains("100");
        sentinel.group().awaitStable(Duration.ofSeconds(20)); // the entry is on the replica too

        RedisServer master = sentinel.group().master();
        // The cut refuses new connections to the master (its password changes): a dedicated connection opened
        // before it is one the pool hands out again, as a partition that only separates the replica would allow.
        clients.get(here).dedicated().close();
        try (ReplicationCut cut = master.cutReplicationLinks()) {
            source.rows.put("42", "1"); // the update commits
            invalidate.accept(here); // the master takes the UNLINK, alone
            assertThat(here.get("42")).contains("1");
            master.kill();
        }

        AtomicInteger staleHere = new AtomicInteger();
        AtomicInteger readsHere = new AtomicInteger();
        AtomicBoolean reading = new AtomicBoolean(true);
        Thread reader = new Thread(() -> {
            while (reading.get()) {
                staleHere.addAndGet(here.get("42").orElseThrow().equals("100") ? 1 : 0);
                readsHere.incrementAndGet();
                java.util.concurrent.locks.LockSupport.parkNanos(200_000); // pacing, so the failover gets the CPU
            }
        }, "reads-through-the-failover");
        reader.start();
        try {
            RedisServer promoted = sentinel.group().awaitNewMaster(master, Duration.ofSeconds(30));
            long promotedAt = System.nanoTime();
            // Until their breakers close both instances read from the source: only then is Redis asked again.
            // Each instance's connection has found the new master (a PING answers), then its cache reads Redis.
            Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> answers(here) && answers(other));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> here.get("42").isPresent()
                    && here.health().isHealthy() && other.get("42").isPresent() && other.health().isHealthy());
            long answersAt = System.nanoTime();
            long otherFreshAfter = -1;
            long deadline = answersAt + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline && (otherFreshAfter < 0 || pending(here) > 0)) {
                if (otherFreshAfter < 0 && other.get("42").orElseThrow().equals("1")) {
                    otherFreshAfter = System.nanoTime() - answersAt;
                }
            }
            long hitsBefore = other.stats().hits();
            for (int i = 0; i < 50; i++) {
                assertThat(other.get("42")).contains("1");
            }
            assertThat(other.stats().hits() - hitsBefore).as("the other instance's reads come from Redis").isPositive();
            reading.set(false);
            reader.join();

            System.out.printf("[figures] SentinelInvalidationFailoverIT %s taken by the old master only, then a"
                    + " failover to a replica holding the old entry: this instance %d stale reads of %d; the other"
                    + " read the new price %.0f ms after Redis answered it again (%.0f ms after the promotion); longest"
                    + " pending %.0f ms%n", how, staleHere.get(), readsHere.get(), otherFreshAfter / 1e6,
                    (answersAt - promotedAt) / 1e6, longestPendingMs(here));
            assertThat(promoted).isNotSameAs(master);
            assertThat(staleHere.get()).isZero();
            assertThat(readsHere.get()).isPositive();
            assertThat(otherFreshAfter).as("the other instance read the update before the check gave up").isPositive();
            assertThat(pending(here)).isZero();
            assertThat(counter(here, "redkit.cache.invalidations.given.up")).isZero();
            assertThat(here.get("42")).contains("1");
        } finally {
            reading.set(false);
            reader.join();
        }
    }

    @Test
    void anInvalidationIsNotConfirmedByAReplicaThatHasNotGotIt() {
        CacheAside<String, String> here = instance("here");
        source.rows.put("7", "old");
        assertThat(here.get("7")).contains("old");
        sentinel.group().awaitStable(Duration.ofSeconds(20));

        // A paused replica stays connected (the master counts it) but applies and acknowledges nothing.
        RedisServer replica = sentinel.group().replicas().get(0);
        replica.pause();
        source.rows.put("7", "new");
        here.invalidate("7");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pending(here) == 0
                || counter(here, "redkit.cache.invalidations.unconfirmed") > 0);
        assertThat(counter(here, "redkit.cache.invalidations.unconfirmed")).isPositive();
        assertThat(here.get("7")).contains("new");

        replica.resume();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> pending(here) == 0);
        assertThat(here.get("7")).contains("new");
    }

    private boolean answers(CacheAside<String, String> cache) {
        return "PONG".equals(clients.get(cache).commands().ping());
    }
}
