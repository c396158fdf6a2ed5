package io.redkit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.Deployment;

/**
 * What the stream suites share: a deployment, clients, queues and signals closed after each test (the deployment
 * healed first), a unique stream name per test, and helpers to publish, count and wait.
 */
abstract class StreamFixture {

    final Deployment deployment;
    final String name = "s" + UUID.randomUUID().toString().substring(0, 8);
    private final List<AutoCloseable> opened = new ArrayList<>();

    StreamFixture(Deployment deployment) {
        this.deployment = deployment;
    }

    Redkit client() {
        return client(b -> { });
    }

    Redkit client(Consumer<RedkitConfig.Builder> settings) {
        RedkitConfig.Builder builder = RedkitConfig.builder().url(deployment.url()).meterRegistry(new SimpleMeterRegistry());
        settings.accept(builder);
        Redkit redkit = Redkit.create(builder.build());
        opened.add(redkit);
        return redkit;
    }

    /** A queue on this test's stream, quick to retry and to claim unless {@code settings} says otherwise. */
    StreamQueue<Job> queue(Redkit redkit, Consumer<StreamConfig.Builder> settings) {
        StreamConfig.Builder builder = StreamConfig.builder(name).visibilityTimeout(Duration.ofSeconds(2))
                .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200)).claimInterval(Duration.ofMillis(200))
                .block(Duration.ofMillis(200)).metricsInterval(Duration.ofMillis(200)).reapAfter(Duration.ZERO);
        settings.accept(builder);
        StreamQueue<Job> queue = StreamQueue.create(redkit, builder.build(), Job.class);
        opened.add(0, queue);
        return queue;
    }

    <T extends AutoCloseable> T closeAfter(T resource) {
        opened.add(0, resource);
        return resource;
    }

    @AfterEach
    void closeAndHeal() throws Exception {
        deployment.healAll();
        for (AutoCloseable c : opened) {
            c.close();
        }
        opened.clear();
    }

    /** Publishes jobs 0..n-1 in pipelined batches; returns their ids in order. */
    static List<String> publish(StreamQueue<Job> queue, int n) {
        List<String> ids = new ArrayList<>(n);
        for (int from = 0; from < n; from += 500) {
            List<CompletableFuture<String>> batch = new ArrayList<>();
            for (int i = from; i < Math.min(n, from + 500); i++) {
                batch.add(queue.publishAsync(new Job(i)));
            }
            batch.forEach(f -> ids.add(f.join()));
        }
        return ids;
    }

    /** Waits until every entry of the group was acknowledged or dead-lettered: nothing lags, nothing pending. */
    static void awaitDrained(StreamQueue<Job> queue, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            QueueStats stats = queue.stats();
            assertThat(stats.pending()).as("pending").isZero();
            assertThat(stats.lag().orElse(-1)).as("lag").isZero();
        });
    }

    /** Handler invocations per entry id, and the handler that records them. */
    static final class Tally {
        final Map<String, AtomicInteger> byId = new ConcurrentHashMap<>();
        final AtomicInteger redelivered = new AtomicInteger();

        void record(Message<Job> m) {
            byId.computeIfAbsent(m.id(), k -> new AtomicInteger()).incrementAndGet();
            if (m.redelivered()) {
                redelivered.incrementAndGet();
            }
        }

        long invocations() {
            return byId.values().stream().mapToLong(AtomicInteger::get).sum();
        }
    }

    static double counter(Redkit redkit, String meter) {
        return redkit.meters().find(meter).counters().stream().mapToDouble(Counter::count).sum();
    }

    static double gauge(Redkit redkit, String meter) {
        Gauge g = redkit.meters().find(meter).gauge();
        return g == null ? Double.NaN : g.value();
    }

    /** Lets a fault last: the length of a pause, not a wait for a condition. */
    static void holdFor(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        for (long left = d.toNanos(); left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
