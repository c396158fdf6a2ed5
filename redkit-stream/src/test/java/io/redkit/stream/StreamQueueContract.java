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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.redkit.DedicatedPoolConfig;
import io.redkit.PoolExhaustedException;
import io.redkit.Redkit;
import io.redkit.RedkitClock;
import io.redkit.StreamOps;
import io.redkit.StreamTrim;
import io.redkit.testing.Deployment;

/**
 * DESIGN §7.2 and §7.3 as claims, on every topology: what a worker acknowledges, retries, dead-letters, trims,
 * hands back at shutdown and reaps, asserted on the stream, the group and the handlers' calls.
 */
abstract class StreamQueueContract extends StreamFixture {

    StreamQueueContract(Deployment deployment) {
        super(deployment);
    }

    private static Map<String, byte[]> raw(String... kv) {
        Map<String, byte[]> fields = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            fields.put(kv[i], kv[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return fields;
    }

    @Test
    void publishOnceAddsAKeyOnceWhileItIsRememberedAndRefusesABadRemember() {
        StreamQueue<Job> queue = queue(client(), b -> { });
        String first = queue.publishOnce("k", new Job(1), Duration.ofSeconds(1));

        assertThat(queue.publishOnce("k", new Job(1), Duration.ofSeconds(1))).isEqualTo(first);
        assertThat(queue.stats().length()).isEqualTo(1);
        // Once the marker has expired, the key adds a new entry.
        String later = await().atMost(Duration.ofSeconds(10)).until(
                () -> queue.publishOnce("k", new Job(1), Duration.ofSeconds(1)), id -> !id.equals(first));
        assertThat(later).isNotEqualTo(first);
        assertThat(queue.stats().length()).isEqualTo(2);

        assertThatThrownBy(() -> queue.publishOnce("k", new Job(1), Duration.ofMillis(999)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("remember");
        assertThatThrownBy(() -> queue.publishOnce("k", new Job(1), Duration.ofDays(31)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("remember");
        assertThatThrownBy(() -> queue.publishOnce("", new Job(1), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(queue.stats().length()).isEqualTo(2);
    }

    @Test
    void everyMessageIsHandledOnceAndAcknowledged() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.workers(2).batchSize(50));
        List<String> ids = publish(queue, 1000);
        Tally tally = new Tally();

        queue.start(tally::record);

        awaitDrained(queue, Duration.ofSeconds(30));
        assertThat(tally.byId.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(tally.invocations()).isEqualTo(1000);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> counter(redkit, "redkit.stream.acknowledged") == 1000);
        assertThat(queue.deadLetters(10)).isEmpty();
    }

    @Test
    void aPoisonMessageEndsInTheDeadLetterStreamAfterMaxDeliveries() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.maxDeliveries(3));
        publish(queue, 20);
        String poison = queue.publish("poison-key", new Job(-1));
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        queue.start(m -> {
            calls.computeIfAbsent(m.id(), k -> new AtomicInteger()).incrementAndGet();
            if (m.payload().n() < 0) {
                throw new IllegalStateException("cannot ship job " + m.payload().n() + " (delivery " + m.delivery()
                        + ")");
            }
        });

        awaitDrained(queue, Duration.ofSeconds(30));
        List<DeadLetter> dead = queue.deadLetters(10);
        assertThat(dead).hasSize(1);
        DeadLetter letter = dead.get(0);
        assertThat(letter.originalId()).isEqualTo(poison);
        assertThat(letter.reason()).isEqualTo("failed");
        assertThat(letter.deliveries()).isEqualTo(3);
        assertThat(letter.error()).contains("IllegalStateException", "cannot ship job -1 (delivery 3)");
        assertThat(new String(letter.fields().get("k"), StandardCharsets.UTF_8)).isEqualTo("poison-key");
        assertThat(new String(letter.fields().get("d"), StandardCharsets.UTF_8)).isEqualTo("{\"n\":-1}");
        assertThat(calls.get(poison)).hasValue(3);
        assertThat(calls).hasSize(21);
        assertThat(counter(redkit, "redkit.stream.retries")).isEqualTo(2);
        assertThat(counter(redkit, "redkit.stream.dead.lettered")).isEqualTo(1);
    }

    @Test
    void anUndecodablePayloadGoesToTheDeadLetterStreamAtOnceNotIntoEndlessRetries() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.maxDeliveries(1000));
        StreamOps streams = redkit.commands().streams();
        String brokenJson = streams.add(queue.key(), raw("v", "1", "k", "a", "d", "{\"n\": not json"), StreamTrim.NONE);
        String foreign = streams.add(queue.key(), raw("order", "42"), StreamTrim.NONE);
        queue.publish(new Job(7));
        AtomicInteger handled = new AtomicInteger();

        queue.start(m -> handled.incrementAndGet());

        awaitDrained(queue, Duration.ofSeconds(30));
        assertThat(handled).hasValue(1);
        List<DeadLetter> dead = queue.deadLetters(10);
        assertThat(dead).extracting(DeadLetter::originalId).containsExactlyInAnyOrder(brokenJson, foreign);
        assertThat(dead).allSatisfy(d -> {
            assertThat(d.reason()).isEqualTo("undecodable");
            assertThat(d.deliveries()).isEqualTo(1);
        });
        assertThat(counter(redkit, "redkit.stream.retries")).isZero();
    }

    @Test
    void aSlowHandlerDoesNotMakeAWorkerReadWithoutBound() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.batchSize(10).visibilityTimeout(Duration.ofSeconds(10)));
        publish(queue, 300);
        AtomicInteger handled = new AtomicInteger();
        AtomicLong mostPending = new AtomicLong();

        queue.start(m -> {
            Thread.sleep(20); // the handler's own slow work
            handled.incrementAndGet();
        });

        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < until) {
            for (StreamOps.ConsumerInfo c : redkit.commands().streams().consumers(queue.key(), "workers")) {
                mostPending.accumulateAndGet(c.pending(), Math::max);
            }
            holdFor(Duration.ofMillis(5));
        }
        QueueStats stats = queue.stats();
        System.out.printf("[figures] %s slow handler (20 ms), batch 10: at most %d pending with the worker, %d"
                + " handled, %d not yet read%n", getClass().getSimpleName(), mostPending.get(), handled.get(),
                stats.lag().orElse(-1));
        assertThat(mostPending.get()).isBetween(1L, 10L);
        assertThat(stats.lag().orElse(0)).isGreaterThan(100);
    }

    @Test
    void gracefulShutdownFinishesInFlightWorkAndHandsBackTheRest() throws Exception {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.batchSize(10).visibilityTimeout(Duration.ofSeconds(1)));
        List<String> ids = publish(queue, 10);
        CountDownLatch firstDone = new CountDownLatch(1);
        Set<String> firstRun = ConcurrentHashMap.newKeySet();
        Workers first = queue.start(m -> {
            firstRun.add(m.id());
            Thread.sleep(m.payload().n() < 2 ? 10 : 5_000); // the third message outlasts the deadline
            firstDone.countDown();
        });
        assertThat(firstDone.await(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> firstRun.size() == 3);

        ShutdownReport report = first.close(Duration.ofMillis(200));

        // The first two finished before the close (their acknowledgement left after it): not counted.
        assertThat(report.acknowledged()).isZero();
        assertThat(report.interrupted()).isEqualTo(1);
        assertThat(report.handedBack()).isEqualTo(7);
        assertThat(report.withinDeadline()).isFalse();
        assertThat(first.isRunning()).isFalse();
        Map<String, Long> deliveries = new ConcurrentHashMap<>();
        queue.start(m -> deliveries.put(m.id(), m.delivery()));
        awaitDrained(queue, Duration.ofSeconds(30));
        // Handed back: never started, so not a redelivery; the interrupted one: handed out again.
        assertThat(deliveries.keySet()).containsExactlyInAnyOrderElementsOf(ids.subList(2, 10));
        assertThat(deliveries.get(ids.get(2))).isEqualTo(2);
        ids.subList(3, 10).forEach(id -> assertThat(deliveries.get(id)).as(id).isEqualTo(1));
    }

    @Test
    void theShutdownReportCountsWhatTheHandlersDidAfterTheClose() throws Exception {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.batchSize(10).visibilityTimeout(Duration.ofSeconds(1)));
        publish(queue, 10);
        CountDownLatch third = new CountDownLatch(1);
        AtomicInteger finishedAfterClose = new AtomicInteger();
        AtomicInteger interruptedSeen = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();
        Workers workers = queue.start(m -> {
            if (m.payload().n() == 2) {
                third.countDown();
                // A handler that swallows the interrupt and returns normally: interrupted, and acknowledged.
                while (!Thread.interrupted()) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
                interruptedSeen.incrementAndGet();
            }
            if (closing.get()) {
                finishedAfterClose.incrementAndGet();
            }
        });
        assertThat(third.await(10, TimeUnit.SECONDS)).isTrue();

        closing.set(true);
        ShutdownReport report = workers.close(Duration.ofMillis(200));

        System.out.printf("[figures] %s shutdown report %s; in the handlers: %d finished after the close, %d"
                + " interrupted%n", getClass().getSimpleName(), report, finishedAfterClose.get(), interruptedSeen.get());
        assertThat(report.acknowledged()).isEqualTo(finishedAfterClose.get()).isEqualTo(1);
        assertThat(report.interrupted()).isEqualTo(interruptedSeen.get()).isEqualTo(1);
        assertThat(report.handedBack()).isEqualTo(7);
        assertThat(report.withinDeadline()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.stats().pending() == 7);
    }

    @Test
    void aDeadConsumerIsRemovedWithoutOrphaningItsPendingEntries() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.visibilityTimeout(Duration.ofMillis(300))
                .claimInterval(Duration.ofMillis(100)).retryBackoff(Duration.ofMillis(10), Duration.ofMillis(100)));
        List<String> ids = publish(queue, 5);
        StreamOps streams = redkit.commands().streams();
        // A consumer that read and died: its entries are pending with it, and nobody else reads yet.
        assertThat(streams.readGroup(queue.key(), "workers", "ghost", ">", 10, Duration.ZERO)).hasSize(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> streams.consumers(queue.key(), "workers").stream()
                .anyMatch(c -> c.name().equals("ghost") && c.idle().toMillis() >= 700));

        ReapResult reaped = queue.reapDeadConsumers(Duration.ofMillis(600));

        assertThat(reaped.removed()).containsExactly("ghost");
        assertThat(reaped.entriesHandedOn()).isEqualTo(5);
        assertThat(streams.consumers(queue.key(), "workers")).extracting(StreamOps.ConsumerInfo::name)
                .doesNotContain("ghost");
        assertThat(streams.pendingCount(queue.key(), "workers")).isEqualTo(5);
        Map<String, Long> deliveries = new ConcurrentHashMap<>();
        queue.start(m -> deliveries.put(m.id(), m.delivery()));
        awaitDrained(queue, Duration.ofSeconds(10));
        assertThat(deliveries.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(deliveries.values()).containsOnly(2L);
    }

    @Test
    void moreWorkersThanThePoolCanGiveFailAtStartAndStartNothing() {
        Redkit redkit = client(b -> b.dedicatedPool(new DedicatedPoolConfig(3, 3, Duration.ofMillis(100))));
        StreamQueue<Job> queue = queue(redkit, b -> b.workers(4));

        assertThatThrownBy(() -> queue.start(m -> { })).isInstanceOf(PoolExhaustedException.class);

        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("redkit-stream-" + name
                + "-") && !t.getName().endsWith("maintenance"));
        StreamQueue<Job> three = queue(client(b -> b.dedicatedPool(new DedicatedPoolConfig(3, 3,
                Duration.ofMillis(100)))), b -> b.workers(3));
        Workers started = three.start(m -> { });
        assertThat(started.workers()).hasSize(3).allSatisfy(w -> assertThat(w.consumer()).matches(".+-\\d+"));
        assertThat(new HashSet<>(started.workers().stream().map(Worker::consumer).toList())).hasSize(3);
    }

    @Test
    void metricsCountDeliveriesRetriesAndReportLagAndPending() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> { });
        publish(queue, 50);
        await().atMost(Duration.ofSeconds(5)).until(() -> gauge(redkit, "redkit.stream.lag") == 50);
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();

        queue.start(m -> {
            if (failedOnce.add(m.id())) {
                throw new IllegalStateException("first delivery fails");
            }
        });

        awaitDrained(queue, Duration.ofSeconds(30));
        assertThat(counter(redkit, "redkit.stream.deliveries")).isEqualTo(100);
        assertThat(counter(redkit, "redkit.stream.redeliveries")).isEqualTo(50);
        assertThat(counter(redkit, "redkit.stream.retries")).isEqualTo(50);
        await().atMost(Duration.ofSeconds(5)).until(() -> counter(redkit, "redkit.stream.acknowledged") == 50);
        assertThat(counter(redkit, "redkit.stream.published")).isEqualTo(50);
        assertThat(redkit.meters().find("redkit.stream.handler").tag("outcome", "failure").timer().count())
                .isEqualTo(50);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(gauge(redkit, "redkit.stream.lag")).isZero();
            assertThat(gauge(redkit, "redkit.stream.pending")).isZero();
            assertThat(gauge(redkit, "redkit.stream.length")).isEqualTo(50);
        });
        assertThat(redkit.meters().find("redkit.stream.deliveries").tag("stream", name).tag("group", "workers")
                .tag("client", redkit.config().name()).counter()).isNotNull();
    }

    @Test
    void theGroupIsCreatedOnceAndSeesWhatWasPublishedBeforeIt() {
        Redkit producer = client();
        StreamOps streams = producer.commands().streams();
        streams.add(io.redkit.KeySchema.of("stream").key(name), ForeignProducer.job(1), StreamTrim.NONE);
        StreamQueue<Job> first = queue(producer, b -> { });
        StreamQueue<Job> second = queue(client(), b -> { });
        assertThat(streams.groups(first.key())).hasSize(1);
        List<Integer> seen = new ArrayList<>();

        second.start(m -> seen.add(m.payload().n()));

        awaitDrained(second, Duration.ofSeconds(10));
        assertThat(seen).containsExactly(1);
    }

    /** Entries as a service in another language writes them. */
    private static final class ForeignProducer {
        static Map<String, byte[]> job(int n) {
            return raw("v", "1", "k", "from-go-" + n, "d", "{\"n\":" + n + "}");
        }
    }

    /** The real clock, with the wall clock moved ahead on demand. */
    static final class ShiftedClock implements RedkitClock {
        private final AtomicLong shiftMillis = new AtomicLong();

        void shift(Duration by) {
            shiftMillis.addAndGet(by.toMillis());
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long wallMillis() {
            return System.currentTimeMillis() + shiftMillis.get();
        }
    }
}
