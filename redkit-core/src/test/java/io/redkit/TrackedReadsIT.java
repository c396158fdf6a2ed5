package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/**
 * What the server says about keys read on a tracked connection, by any other client's hand: a write, a delete, a
 * flush, a restart; and a server that refuses tracking is named with its own answer.
 */
class TrackedReadsIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final InvalidationListener listener = Heard.into(heard);

    @AfterEach
    void flush() {
        redis.flushAll();
    }

    @Test
    void aWriteByAnotherClientIsHeardBeforeTheNextRoundTripEnds() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.url());
                TrackedReads reads = redkit.trackedReads(List.of(), listener)) {
            assertThat(reads.tracking()).isTrue();
            redis.command("SET", "k:1", "old");
            assertThat(reads.get("k:1")).map(String::new).contains("old");
            heard.clear();

            redis.command("SET", "k:1", "new"); // redis-cli's hand, not redkit's
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);

            assertThat(heard).containsExactly("key k:1");
        }
    }

    @Test
    void aKeyIsHeardOfOncePerReadAndAKeyNeverReadNotAtAll() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.url());
                TrackedReads reads = redkit.trackedReads(List.of(), listener)) {
            reads.get("read");
            heard.clear();
            redis.command("SET", "read", "1");
            redis.command("SET", "read", "2");
            redis.command("SET", "unread", "1");
            redis.command("DEL", "read");
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);

            assertThat(heard).containsExactly("key read");
        }
    }

    @Test
    void aFlushIsAReset() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.url());
                TrackedReads reads = redkit.trackedReads(List.of(), listener)) {
            reads.get("k");
            heard.clear();
            redis.command("FLUSHALL");
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);

            assertThat(heard).containsExactly("reset the server flushed its keys");
        }
    }

    @Test
    void broadcastModeAnnouncesEveryKeyUnderThePrefixReadOrNot() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.url());
                TrackedReads reads = redkit.trackedReads(List.of("mine:"), listener)) {
            heard.clear();
            redis.command("SET", "mine:never-read", "1");
            redis.command("SET", "theirs:1", "1");
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);

            assertThat(heard).containsExactly("key mine:never-read");
        }
    }

    @Test
    void aRestartIsAResetAndTrackingIsOnAgainAfterIt() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.url());
                TrackedReads reads = redkit.trackedReads(List.of(), listener)) {
            heard.clear();
            redis.kill();
            await().atMost(Duration.ofSeconds(5)).until(() -> !heard.isEmpty());
            assertThat(reads.tracking()).isFalse();
            assertThat(heard).containsExactly("reset connection lost: invalidations sent meanwhile are missed");
            redis.restart();
            await().atMost(Duration.ofSeconds(10)).until(reads::tracking);
            assertThat(heard).endsWith("reset tracking on");

            reads.get("after");
            heard.clear();
            redis.command("SET", "after", "1");
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);
            assertThat(heard).containsExactly("key after");
        }
    }

    @Test
    void aServerThatRefusesTrackingIsNamedWithItsAnswer() {
        redis.command("ACL", "SETUSER", "notrack", "on", ">secret-pw", "~*", "+@all", "-client|tracking");
        String url = redis.url().replace("redis://", "redis://notrack:secret-pw@");
        try (Redkit redkit = Redkit.connect(url)) {
            assertThatThrownBy(() -> redkit.trackedReads(List.of(), listener))
                    .isInstanceOf(TrackingRefusedException.class)
                    .hasMessageContaining("CLIENT TRACKING ON")
                    .hasMessageContaining("NOPERM");
        } finally {
            redis.command("ACL", "DELUSER", "notrack");
        }
    }
}
