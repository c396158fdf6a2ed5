package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.RedkitException;
import io.redkit.testing.RedisServer;
import io.redkit.testing.RedisServerExtension;

/**
 * A committed update never comes undone after a Redis outage: on a redis-server that keeps its data across a
 * restart (AOF, {@code appendfsync always}), a product cached at price 100 is updated to 1 while Redis is dead, its
 * invalidation rejected; Redis restarts from its AOF with the old entry. This instance never serves 100 again,
 * and a second instance serves it only until the retried UNLINK lands (the window the figures give), not for the
 * TTL.
 */
class InvalidationRetryIT extends InvalidationFixture {

    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.from(RedisServer.builder().arg("appendonly", "yes")
            .arg("appendfsync", "always"));

    @Override
    String url() {
        return redis.url();
    }

    @Test
    void aCommittedUpdateIsNeverUndoneWhenRedisComesBackFromItsAof() {
        CacheAside<String, String> here = instance("here");
        CacheAside<String, String> other = instance("other");
        source.rows.put("42", "100");
        assertThat(here.get("42")).contains("100");
        assertThat(other.get("42")).contains("100");

        redis.kill();
        source.rows.put("42", "1"); // the update commits while Redis is dead
        here.invalidateAfterCommit(Runnable::run, List.of("42")); // its UNLINK is rejected at once
        assertThat(here.get("42")).contains("1");
        assertThat(here.getAll(List.of("42"))).containsEntry("42", "1");
        redis.server().restart(); // from its AOF, the old entry with it
        long restarted = System.nanoTime();

        int staleHere = 0;
        long otherFreshAfter = -1;
        long deadline = restarted + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline && (otherFreshAfter < 0 || pending(here) > 0)) {
            staleHere += here.get("42").orElseThrow().equals("100") ? 1 : 0;
            staleHere += here.getAll(List.of("42")).get("42").equals("100") ? 1 : 0;
            if (otherFreshAfter < 0 && other.get("42").orElseThrow().equals("1")) {
                otherFreshAfter = System.nanoTime() - restarted;
            }
        }
        for (int i = 0; i < 50; i++) {
            staleHere += here.get("42").orElseThrow().equals("100") ? 1 : 0;
            assertThat(other.get("42")).contains("1");
        }

        System.out.printf("[figures] InvalidationRetryIT update committed while Redis was dead, Redis back from its"
                + " AOF with the old entry: this instance %d stale reads; the other read the new price %.0f ms after"
                + " the restart; longest pending %.0f ms%n", staleHere, otherFreshAfter / 1e6, longestPendingMs(here));
        assertThat(staleHere).isZero();
        assertThat(otherFreshAfter).as("the other instance read the update before the check gave up").isPositive();
        assertThat(pending(here)).isZero();
        assertThat(counter(here, "redkit.cache.invalidations.given.up")).isZero();
        assertThat(here.get("42")).contains("1");
    }

    @Test
    void aDirectInvalidationReportsItsFailureAndIsRetriedAllTheSame() {
        CacheAside<String, String> cache = instance("here");
        source.rows.put("7", "old");
        assertThat(cache.get("7")).contains("old");
        redis.kill();
        source.rows.put("7", "new");

        assertThatThrownBy(() -> cache.invalidate("7")).isInstanceOf(RedkitException.class);
        assertThat(pending(cache)).isEqualTo(1);
        redis.server().restart();

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pending(cache) == 0);
        assertThat(cache.get("7")).contains("new");
        assertThat(counter(cache, "redkit.cache.invalidations.retried")).isPositive();
    }

    @Test
    void pastTheBoundTheWholeCacheIsReadFromTheSourceUntilItIsInvalidatedAsAWhole() {
        CacheAside<String, String> cache = instance("here");
        source.rows.put("a", "old");
        source.rows.put("untouched", "v");
        assertThat(cache.get("a")).contains("old");
        assertThat(cache.get("untouched")).contains("v");
        redis.kill();
        source.rows.put("a", "new");
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 10_001; i++) {
            many.add("k" + i);
        }
        many.add("a");

        assertThatThrownBy(() -> cache.invalidate(many)).isInstanceOf(RedkitException.class);
        redis.server().restart();
        int loadsBefore = source.loads.get();
        assertThat(cache.get("a")).contains("new"); // read from the source: its invalidation is not confirmed

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pending(cache) == 0);
        assertThat(counter(cache, "redkit.cache.invalidations.overflowed")).isEqualTo(1);
        assertThat(source.loads.get()).isGreaterThan(loadsBefore);
        assertThat(cache.get("a")).contains("new");
        assertThat(cache.get("untouched")).contains("v"); // the whole cache went: loaded again, then a hit
        int loads = source.loads.get();
        assertThat(cache.get("untouched")).contains("v");
        assertThat(source.loads.get()).isEqualTo(loads);
    }
}
