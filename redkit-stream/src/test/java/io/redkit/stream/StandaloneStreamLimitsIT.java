package io.redkit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Redkit;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitConfig;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/**
 * {@link StreamLimitsContract} on one real redis-server, and what the append-only file is worth to a queue: with
 * {@code appendfsync always}, a SIGKILL of the server and a restart from its AOF keep every entry publish
 * acknowledged.
 */
class StandaloneStreamLimitsIT extends StreamLimitsContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneStreamLimitsIT() {
        super(redis);
    }

    @Test
    void withTheAppendOnlyFileAKilledServerKeepsEveryAcknowledgedPublish() {
        try (RedisServer durable = RedisServer.builder().arg("appendonly", "yes").arg("appendfsync", "always")
                .start();
                Redkit redkit = Redkit.create(RedkitConfig.builder().url(durable.url()).build());
                StreamQueue<Job> queue = StreamQueue.create(redkit, StreamConfig.builder(name)
                        .durability(StreamConfig.Durability.REQUIRE_AOF).build(), Job.class)) {
            List<String> ids = publish(queue, 1_000);
            assertThat(queue.stats().persistence()).isEqualTo(QueueStats.Persistence.AOF_ALWAYS);

            durable.kill(); // SIGKILL: no shutdown, no save
            durable.restart();
            // The client reconnects on its own; until it has, a command is refused at once (not queued).
            await().atMost(Duration.ofSeconds(15)).ignoreExceptionsInstanceOf(RedisUnavailableException.class)
                    .until(() -> "PONG".equals(redkit.background().ping()));

            List<String> kept = redkit.background().streams().range(queue.key(), "-", "+", 2_000).stream()
                    .map(e -> e.id()).toList();
            System.out.printf("[figures] %s 1000 published with appendfsync always, server SIGKILLed and restarted"
                    + " from its AOF: %d kept%n", getClass().getSimpleName(), kept.size());
            assertThat(kept).containsExactlyElementsOf(ids);
            awaitDrainedAfterRestart(queue);
        }
    }

    private static void awaitDrainedAfterRestart(StreamQueue<Job> queue) {
        java.util.Set<String> handled = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try (Workers workers = queue.start(m -> handled.add(m.id()))) {
            awaitDrained(queue, Duration.ofSeconds(30));
        }
        assertThat(handled).hasSize(1_000);
    }
}
