package io.redkit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import io.redkit.Redkit;
import io.redkit.StreamOps;
import io.redkit.StreamTrim;
import io.redkit.testing.Deployment;

/**
 * What a queue refuses, on every topology, and that a refusal loses nothing stored: the length cap never trims
 * work some group has not acknowledged (a full stream refuses the publish, or drops the oldest only where chosen
 * and counted), a group that is behind keeps its backlog, an entry too large or a payload that decodes to null is
 * turned away, and a queue can refuse to start on a server without the append-only file.
 */
abstract class StreamLimitsContract extends StreamFixture {

    StreamLimitsContract(Deployment deployment) {
        super(deployment);
    }

    @Test
    void aFullStreamRefusesThePublishAndNeverTrimsUnreadWork() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.maxLength(100));
        Set<String> handled = ConcurrentHashMap.newKeySet();
        queue.start(m -> handled.add(m.id()));

        List<CompletableFuture<String>> sent = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            sent.add(queue.publishAsync(new Job(i)));
        }
        Set<String> accepted = new HashSet<>();
        int refused = 0;
        for (CompletableFuture<String> f : sent) {
            try {
                accepted.add(f.join());
            } catch (CompletionException e) {
                assertThat(e.getCause()).isInstanceOf(QueueFullException.class)
                        .hasMessageContaining("maxLength 100").hasMessageContaining("nothing was added");
                refused++;
            }
        }

        awaitDrained(queue, Duration.ofSeconds(30));
        System.out.printf("[figures] %s maxLength 100, 2000 published at once beside one worker: %d accepted and"
                + " handled, %d refused with QueueFullException, %d lost%n", getClass().getSimpleName(),
                accepted.size(), refused, accepted.stream().filter(id -> !handled.contains(id)).count());
        assertThat(accepted.size() + refused).isEqualTo(2_000);
        assertThat(handled).containsExactlyInAnyOrderElementsOf(accepted);
        assertThat(counter(redkit, "redkit.stream.gone")).isZero();
        assertThat(counter(redkit, "redkit.stream.dropped")).isZero();
        assertThat(redkit.commands().streams().length(queue.key())).isLessThanOrEqualTo(100);
    }

    @Test
    void aGroupThatIsBehindKeepsItsBacklogThroughATrim() {
        Redkit redkit = client();
        StreamQueue<Job> fast = queue(redkit, b -> b.maxLength(50));
        StreamQueue<Job> audit = queue(client(), b -> b.maxLength(50).group("audit"));
        List<String> first = publish(fast, 40);
        Set<String> fastSeen = ConcurrentHashMap.newKeySet();
        Workers fastWorkers = fast.start(m -> fastSeen.add(m.id()));
        awaitDrained(fast, Duration.ofSeconds(10));

        List<String> more = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            more.add(fast.publish(new Job(40 + i)));
        }
        // 50 entries, all acknowledged by one group and none by the other: the trim may delete nothing.
        assertThatThrownBy(() -> fast.publish(new Job(50))).isInstanceOf(QueueFullException.class);
        assertThat(redkit.commands().streams().length(fast.key())).isEqualTo(50);

        Set<String> auditSeen = ConcurrentHashMap.newKeySet();
        Workers auditWorkers = audit.start(m -> auditSeen.add(m.id()));
        awaitDrained(audit, Duration.ofSeconds(10));
        awaitDrained(fast, Duration.ofSeconds(10));
        auditWorkers.close();
        fastWorkers.close();
        String after = fast.publish(new Job(51)); // every group is done: the trim makes room

        List<String> all = new ArrayList<>(first);
        all.addAll(more);
        assertThat(auditSeen).containsExactlyInAnyOrderElementsOf(all);
        assertThat(fastSeen).containsAll(all);
        assertThat(redkit.commands().streams().range(fast.key(), "-", "+", 100)).extracting(e -> e.id())
                .containsExactly(after);
    }

    @Test
    void dropOldestIsChosenExplicitlyAndCountsEveryDroppedEntry() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.maxLength(50).overflow(StreamConfig.Overflow.DROP_OLDEST));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            ids.add(queue.publish(new Job(i)));
        }
        Set<String> handled = ConcurrentHashMap.newKeySet();

        queue.start(m -> handled.add(m.id()));

        awaitDrained(queue, Duration.ofSeconds(10));
        assertThat(counter(redkit, "redkit.stream.dropped")).isEqualTo(30);
        assertThat(handled).containsExactlyInAnyOrderElementsOf(ids.subList(30, 80));
    }

    @Test
    void maxAgeTrimsOnlyAcknowledgedEntriesOlderThanTheAge() {
        StreamQueueContract.ShiftedClock clock = new StreamQueueContract.ShiftedClock();
        Redkit redkit = client(b -> b.clock(clock));
        StreamQueue<Job> queue = queue(redkit, b -> b.maxAge(Duration.ofMinutes(10)));
        List<String> ids = publish(queue, 300);
        StreamOps streams = redkit.commands().streams();

        clock.shift(Duration.ofMinutes(11));
        ids.add(queue.publish(new Job(300)));
        // The maintenance trims, then reads the gauges: once they show the new entry, a trim by the moved clock
        // has run, and it left every unread entry, however old.
        await().atMost(Duration.ofSeconds(5)).until(() -> gauge(redkit, "redkit.stream.length") == 301);
        assertThat(streams.length(queue.key())).isEqualTo(301);

        Set<String> handled = ConcurrentHashMap.newKeySet();
        queue.start(m -> handled.add(m.id()));
        awaitDrained(queue, Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(5)).until(() -> streams.length(queue.key()) == 0);
        assertThat(handled).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void anEntryAboveMaxEntryBytesIsRefusedBeforeAnythingIsSent() {
        Redkit redkit = client();
        StreamQueue<String> queue = closeAfter(StreamQueue.create(redkit, StreamConfig.builder(name)
                .maxEntryBytes(64 * 1024).build(), String.class));
        queue.publish("small");

        assertThatThrownBy(() -> queue.publish("x".repeat(64 * 1024))).isInstanceOf(MessageTooLargeException.class)
                .hasMessageContaining("maxEntryBytes is 65536").hasMessageContaining("nothing was sent");
        assertThat(queue.publishAsync("x".repeat(100_000))).failsWithin(Duration.ofSeconds(1))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(MessageTooLargeException.class);
        assertThat(redkit.commands().streams().length(queue.key())).isEqualTo(1);
        assertThat(StreamConfig.builder(name).build().maxEntryBytes()).isEqualTo(1 << 20);
    }

    @Test
    void aPayloadThatIsJsonNullGoesToTheDeadLettersAtOnce() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.maxDeliveries(5));
        String nullPayload = redkit.commands().streams().add(queue.key(), Map.of("v", utf8("1"), "k", utf8("n"),
                "d", utf8("null")), StreamTrim.NONE);
        String good = queue.publish(new Job(1));
        Set<String> handled = ConcurrentHashMap.newKeySet();

        queue.start(m -> handled.add(m.id()));

        awaitDrained(queue, Duration.ofSeconds(10));
        assertThat(handled).containsExactly(good);
        assertThat(queue.deadLetters(10)).singleElement().satisfies(d -> {
            assertThat(d.originalId()).isEqualTo(nullPayload);
            assertThat(d.reason()).isEqualTo("undecodable");
            assertThat(d.error()).contains("null");
            assertThat(d.deliveries()).isEqualTo(1);
        });
    }

    @Test
    void aQueueThatRequiresTheAppendOnlyFileRefusesAServerWithoutIt() {
        Redkit redkit = client();

        assertThatThrownBy(() -> queue(redkit, b -> b.durability(StreamConfig.Durability.REQUIRE_AOF)))
                .isInstanceOf(QueueDurabilityException.class).hasMessageContaining("appendonly no")
                .hasMessageContaining("nothing was created");
        assertThat(redkit.commands().exists(io.redkit.KeySchema.of("stream").key(name))).isZero();

        StreamQueue<Job> warned = queue(redkit, b -> { });
        assertThat(warned.stats().persistence()).isEqualTo(QueueStats.Persistence.NO_AOF);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
