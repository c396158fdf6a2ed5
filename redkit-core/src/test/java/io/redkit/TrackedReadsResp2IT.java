package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/**
 * Tracked reads on a connection that speaks RESP2 (the server's HELLO is renamed, so Lettuce falls back): the server
 * cannot push there, so invalidations are redirected to a subscribed connection of their own, and what a client
 * hears must be the same as over RESP3, that connection's loss included.
 */
class TrackedReadsResp2IT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone()
            .withArgs("rename-command", "HELLO", "HELLO-renamed");

    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final InvalidationListener listener = Heard.into(heard);

    @AfterEach
    void flush() {
        redis.flushAll();
    }

    @Test
    void aWriteAndADeleteByAnotherClientAreHeardOnTheRedirectConnection() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.url());
                TrackedReads reads = redkit.trackedReads(List.of(), listener)) {
            assertThat(reads.tracking()).isTrue();
            assertThat(redirectIds()).as("one subscribed connection").hasSize(1);
            redis.command("SET", "k:1", "old");
            assertThat(reads.get("k:1")).map(String::new).contains("old");
            heard.clear();

            redis.command("SET", "k:1", "new"); // not redkit's hand
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);
            assertThat(heard).containsExactly("key k:1");

            reads.get("k:1");
            heard.clear();
            redis.command("DEL", "k:1");
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);
            assertThat(heard).containsExactly("key k:1");
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
    void broadcastModeHearsEveryKeyOfAMessageThatNamesSeveral() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.url());
                TrackedReads reads = redkit.trackedReads(List.of("mine:"), listener)) {
            heard.clear();
            // One command, one event-loop turn: the server sends both keys in one message.
            redis.command("MSET", "mine:a", "1", "mine:b", "1", "theirs:1", "1");
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);

            assertThat(heard).containsExactlyInAnyOrder("key mine:a", "key mine:b");
        }
    }

    @Test
    void theRedirectConnectionKilledIsAResetAndTrackingComesBackRedirectedToItsSuccessor() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.url());
                TrackedReads reads = redkit.trackedReads(List.of(), listener)) {
            String killed = redirectIds().get(0);
            heard.clear();

            redis.command("CLIENT", "KILL", "ID", killed);
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(Heard.REDIRECT_LOST));
            await().atMost(Duration.ofSeconds(10)).until(reads::tracking);
            assertThat(heard).containsExactly(Heard.REDIRECT_LOST, "reset tracking on");
            assertThat(redirectIds()).hasSize(1).doesNotContain(killed);

            reads.get("after");
            heard.clear();
            redis.command("SET", "after", "1");
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);
            assertThat(heard).containsExactly("key after");
        }
    }

    @Test
    void inBroadcastModeTrackingComesBackAfterTheRedirectConnectionIsKilled() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.url());
                TrackedReads reads = redkit.trackedReads(List.of("mine:"), listener)) {
            redis.command("CLIENT", "KILL", "ID", redirectIds().get(0));
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(Heard.REDIRECT_LOST));
            await().atMost(Duration.ofSeconds(10)).until(reads::tracking);
            heard.clear();

            redis.command("SET", "mine:after", "1");
            reads.invalidationsDelivered().get(5, TimeUnit.SECONDS);
            assertThat(heard).containsExactly("key mine:after");
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

    /** The ids of the server's subscribed connections: here, only the redirect connection is one. */
    private static List<String> redirectIds() {
        List<String> ids = new ArrayList<>();
        for (String line : String.valueOf(redis.command("CLIENT", "LIST", "TYPE", "pubsub")).split("\r?\n")) {
            for (String field : line.strip().split(" ")) {
                if (field.startsWith("id=")) {
                    ids.add(field.substring(3));
                }
            }
        }
        return ids;
    }
}
