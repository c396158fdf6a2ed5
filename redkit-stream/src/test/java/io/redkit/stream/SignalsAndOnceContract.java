package io.redkit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.Topology;
import io.redkit.testing.Deployment;

/**
 * DESIGN §7.1 and §7.3 as claims, on every topology: a signal reaches only the subscribers connected when it is
 * published, and a subscriber learns when it may have missed some; {@link Once} runs a message key's work once,
 * lets a failed or abandoned run be retried, and turns a producer's retry into a no-op.
 */
abstract class SignalsAndOnceContract extends StreamFixture {

    record Invalidation(String key) {
    }

    SignalsAndOnceContract(Deployment deployment) {
        super(deployment);
    }

    private Signals<Invalidation> signals(Redkit redkit) {
        return closeAfter(Signals.create(redkit, Invalidation.class));
    }

    /** A listener that queues what it receives. */
    private static final class Inbox implements SignalListener<Invalidation> {
        final BlockingQueue<String> keys = new LinkedBlockingQueue<>();
        final CountDownLatch missed = new CountDownLatch(1);
        final AtomicInteger undecodable = new AtomicInteger();

        @Override
        public void onSignal(String channel, Invalidation signal) {
            keys.add(signal.key());
        }

        @Override
        public void onMissed(String channel) {
            missed.countDown();
        }

        @Override
        public void onUndecodable(String channel, byte[] message, Exception error) {
            undecodable.incrementAndGet();
        }

        String next() throws InterruptedException {
            return keys.poll(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aSubscriberGetsTheTypedSignalsPublishedWhileItIsConnected() throws Exception {
        Signals<Invalidation> subscriber = signals(client());
        Signals<Invalidation> publisher = signals(client());
        Inbox inbox = new Inbox();
        subscriber.subscribe(name, inbox);

        publisher.publish(name, new Invalidation("product:{42}"));
        publisher.publish(name, new Invalidation("product:{43}"));

        assertThat(inbox.next()).isEqualTo("product:{42}");
        assertThat(inbox.next()).isEqualTo("product:{43}");
        assertThat(subscriber.isConnected()).isTrue();
    }

    @Test
    void signalsPublishedWhileASubscriberIsAwayAreLostForIt() throws Exception {
        Signals<Invalidation> subscriber = signals(client());
        Signals<Invalidation> publisher = signals(client());
        Inbox inbox = new Inbox();
        Inbox witness = new Inbox(); // stays subscribed: tells when a signal has gone round the cluster
        signals(client()).subscribe(name, witness);
        Signals.Subscription subscription = subscriber.subscribe(name, inbox);
        publisher.publish(name, new Invalidation("before"));
        assertThat(inbox.next()).isEqualTo("before");
        assertThat(witness.next()).isEqualTo("before");

        subscription.close();
        publisher.publish(name, new Invalidation("while-away"));
        assertThat(witness.next()).isEqualTo("while-away");
        holdFor(Duration.ofMillis(200)); // on Cluster a PUBLISH reaches the other nodes over the cluster bus
        subscriber.subscribe(name, inbox);
        publisher.publish(name, new Invalidation("after"));

        assertThat(inbox.next()).isEqualTo("after");
        assertThat(inbox.keys).isEmpty();
    }

    @Test
    void aDroppedSubscriberConnectionIsReportedAsMissedOnceItIsBack() throws Exception {
        Redkit redkit = client();
        Signals<Invalidation> subscriber = signals(redkit);
        Signals<Invalidation> publisher = signals(client());
        Inbox inbox = new Inbox();
        subscriber.subscribe(name, inbox);

        deployment.onEveryDataNode("CLIENT", "KILL", "TYPE", "pubsub");

        assertThat(inbox.missed.await(10, TimeUnit.SECONDS)).as("onMissed after the reconnect").isTrue();
        // The reconnect actions run first, then the link says connected (RedisPubSub.onReconnect).
        await().atMost(Duration.ofSeconds(5)).until(subscriber::isConnected);
        publisher.publish(name, new Invalidation("after-reconnect"));
        assertThat(inbox.next()).isEqualTo("after-reconnect");
        assertThat(counter(redkit, "redkit.signal.missed")).isEqualTo(1);
    }

    @Test
    void anUndecodableSignalIsDroppedAndCountedAndTheNextOneArrives() throws Exception {
        Redkit redkit = client();
        Signals<Invalidation> subscriber = signals(redkit);
        Inbox inbox = new Inbox();
        subscriber.subscribe(name, inbox);

        byte[] garbage = "<not json>".getBytes(StandardCharsets.UTF_8);
        if (subscriber.mode() == SignalMode.SHARDED) {
            redkit.commands().spublish(name, garbage);
        } else {
            redkit.commands().publish(name, garbage);
        }
        subscriber.publish(name, new Invalidation("good"));

        assertThat(inbox.next()).isEqualTo("good");
        assertThat(inbox.undecodable).hasValue(1);
        assertThat(counter(redkit, "redkit.signal.undecodable")).isEqualTo(1);
    }

    @Test
    void signalsAreShardedOnClusterAndPlainElsewhere() {
        Redkit redkit = client();
        assertThat(signals(redkit).mode())
                .isEqualTo(redkit.topology() == Topology.CLUSTER ? SignalMode.SHARDED : SignalMode.PUBSUB);
    }

    @Test
    void onceRunsTheWorkOncePerKeyAndTellsALaterDeliveryItIsDone() throws Exception {
        Once once = Once.create(client(), OnceConfig.builder(name).build());
        AtomicInteger runs = new AtomicInteger();

        OnceResult<Integer> first = once.run("order-42", runs::incrementAndGet);
        OnceResult<Integer> second = once.run("order-42", runs::incrementAndGet);
        OnceResult<Integer> other = once.run("order-43", runs::incrementAndGet);

        assertThat(first).isEqualTo(new OnceResult.Ran<>(1));
        assertThat(second).isEqualTo(new OnceResult.AlreadyDone<>());
        assertThat(other).isEqualTo(new OnceResult.Ran<>(2));
        assertThat(runs).hasValue(2);
    }

    @Test
    void workThatThrowsLeavesNoMarkSoTheRetryRunsIt() throws Exception {
        Once once = Once.create(client(), OnceConfig.builder(name).build());

        assertThatThrownBy(() -> once.run("order-42", () -> {
            throw new IllegalStateException("payment service down");
        })).hasMessage("payment service down");

        assertThat(once.run("order-42", () -> "paid")).isEqualTo(new OnceResult.Ran<>("paid"));
    }

    @Test
    void aConcurrentDeliveryOfTheSameKeyIsToldItIsInProgress() throws Exception {
        Once once = Once.create(client(), OnceConfig.builder(name).build());
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread first = new Thread(() -> {
            try {
                once.run("order-42", () -> {
                    inside.countDown();
                    return release.await(10, TimeUnit.SECONDS);
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        first.start();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

        OnceResult<String> second = once.run("order-42", () -> "twice");

        release.countDown();
        first.join(10_000);
        assertThat(second).isInstanceOfSatisfying(OnceResult.InProgress.class, busy -> assertThat(busy.retryAfter())
                .isPositive().isLessThanOrEqualTo(OnceConfig.DEFAULT_LEASE_TTL));
        assertThat(once.run("order-42", () -> "again")).isEqualTo(new OnceResult.AlreadyDone<>());
    }

    @Test
    void aRunnerThatDiedHoldsTheKeyOnlyUntilItsLeaseExpires() throws Exception {
        Redkit redkit = client();
        Once once = Once.create(redkit, OnceConfig.builder(name).leaseTtl(Duration.ofMillis(300)).build());
        String key = KeySchema.of(OnceConfig.DEFAULT_NAMESPACE).key(name, "order-42");
        // What a process killed in the middle of the work leaves behind.
        redkit.commands().set(key, "1:running:dead-process".getBytes(StandardCharsets.UTF_8), Duration.ofMillis(300));

        assertThat(once.run("order-42", () -> "now")).isInstanceOfSatisfying(OnceResult.InProgress.class,
                busy -> assertThat(busy.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(300)));
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(key) == 0);
        assertThat(once.run("order-42", () -> "now")).isEqualTo(new OnceResult.Ran<>("now"));
    }

    @Test
    void aMarkingWhoseReplyWasLostIsSettledAndTheWorkRunsOnce() throws Exception {
        Redkit redkit = client(b -> b.commandTimeout(Duration.ofMillis(100)));
        Once once = Once.create(redkit, OnceConfig.builder(name).build());
        String key = KeySchema.of(OnceConfig.DEFAULT_NAMESPACE).key(name, "order-42");
        AtomicInteger runs = new AtomicInteger();
        // Writes wait 400 ms on the server: the marking times out (outcome unknown) and runs when the pause ends.
        deployment.serverOf(key).command("CLIENT", "PAUSE", "400", "WRITE");
        long start = System.nanoTime();

        OnceResult<Integer> result = once.run("order-42", runs::incrementAndGet);

        System.out.printf("[figures] %s a marking timed out (100 ms) under a 400 ms write pause: settled as %s after"
                + " %d ms%n", getClass().getSimpleName(), result, millis(System.nanoTime() - start));
        assertThat(millis(System.nanoTime() - start)).as("the marking waited for the pause").isGreaterThan(100);
        assertThat(result).isEqualTo(new OnceResult.Ran<>(1));
        assertThat(redkit.commands().getString(key)).contains("1:done");
        assertThat(once.run("order-42", runs::incrementAndGet)).isEqualTo(new OnceResult.AlreadyDone<>());
        assertThat(runs).hasValue(1);
    }

    @Test
    void workLongerThanTheLeaseKeepsItsMarkerAndIsNotRunTwice() throws Exception {
        Once once = Once.create(client(), OnceConfig.builder(name).leaseTtl(Duration.ofMillis(300)).build());
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        Thread first = new Thread(() -> {
            try {
                once.run("order-42", () -> {
                    runs.incrementAndGet();
                    inside.countDown();
                    return release.await(10, TimeUnit.SECONDS);
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "long-work");
        first.start();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

        // Four leases later the work still runs: its marker was renewed, so another delivery is told to wait.
        holdFor(Duration.ofMillis(1_200));
        OnceResult<Integer> second = once.run("order-42", runs::incrementAndGet);
        release.countDown();
        first.join(10_000);

        assertThat(second).isInstanceOf(OnceResult.InProgress.class);
        assertThat(runs).hasValue(1);
    }

    @Test
    void aDeliveryToldToWaitDoesNotSpendItsDeliveriesAndRunsOnceTheLeaseIsOver() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> b.maxDeliveries(2));
        Once once = Once.forQueue(redkit, queue);
        String key = KeySchema.of(OnceConfig.DEFAULT_NAMESPACE).key(name, "order-42");
        // Another process is in the middle of order 42's work, for 1.5 s more.
        redkit.commands().set(key, "1:running:another-process".getBytes(StandardCharsets.UTF_8),
                Duration.ofMillis(1_500));
        queue.publish("order-42", new Job(42));
        List<Long> deliveries = new java.util.concurrent.CopyOnWriteArrayList<>();

        queue.start(once.handler(m -> deliveries.add(m.delivery())));

        awaitDrained(queue, Duration.ofSeconds(10));
        System.out.printf("[figures] %s a delivery told InProgress for 1.5 s with maxDeliveries 2: postponed %.0f"
                + " times, then ran on delivery %s, dead letters %d%n", getClass().getSimpleName(),
                counter(redkit, "redkit.stream.postponed"), deliveries, queue.deadLetters(10).size());
        assertThat(queue.deadLetters(10)).isEmpty();
        assertThat(deliveries).containsExactly(1L);
        assertThat(counter(redkit, "redkit.stream.postponed")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aProducerRetryWithTheSameKeyIsHandledOnce() {
        Redkit redkit = client();
        StreamQueue<Job> queue = queue(redkit, b -> { });
        Once once = Once.forQueue(redkit, queue);
        // A publish that timed out (outcome unknown) and was sent again under the same key: two entries.
        queue.publish("order-42", new Job(42));
        queue.publish("order-42", new Job(42));
        AtomicInteger shipped = new AtomicInteger();
        List<OnceResult<?>> results = new java.util.concurrent.CopyOnWriteArrayList<>();

        queue.start(m -> results.add(once.run(m.key(), shipped::incrementAndGet)));

        awaitDrained(queue, Duration.ofSeconds(10));
        assertThat(shipped).hasValue(1);
        assertThat(results).containsExactly(new OnceResult.Ran<>(1), new OnceResult.AlreadyDone<>());
    }
}
