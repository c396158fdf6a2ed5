package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redkit.testing.RedisServerExtension;

/**
 * The error model at its edges: what the escape hatch reports when the caller's lambda fails before sending, the
 * worst outcome of several attempts, and a start that fails halfway leaving nothing behind.
 */
class ErrorModelIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @Test
    void executeLambdaThatThrowsBeforeSendingIsRethrownAsItIsNotReportedUnknown() {
        try (Redkit redkit = Redkit.connect(redis.url())) {
            IllegalArgumentException bug = new IllegalArgumentException("bad argument in the caller's lambda");
            assertThatThrownBy(() -> redkit.commands().execute("HGETALL", Idempotency.IDEMPOTENT, c -> {
                throw bug;
            })).isSameAs(bug);
            assertThat(redkit.commands().executeAsync("HGETALL", Idempotency.IDEMPOTENT, c -> {
                throw bug;
            })).failsWithin(Duration.ofSeconds(1)).withThrowableOfType(ExecutionException.class).havingCause()
                    .isSameAs(bug);
        }
    }

    @Test
    void executeLambdaReturningNoFutureGetsAClearError() {
        try (Redkit redkit = Redkit.connect(redis.url())) {
            assertThatThrownBy(() -> redkit.commands().execute("GET", Idempotency.IDEMPOTENT, c -> null))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("GET")
                    .hasMessageContaining("returned no future");
            assertThat(redkit.commands().ping()).isEqualTo("PONG");
        }
    }

    @Test
    void scriptWithoutArgumentsRuns() {
        try (Redkit redkit = Redkit.connect(redis.url())) {
            RedisScript<Long> count = RedisScript.of("keys-given", "return #KEYS", ScriptResult.INTEGER,
                    Idempotency.IDEMPOTENT);
            assertThat(redkit.commands().eval(count, List.of("a", "b"))).isEqualTo(2L);
        }
    }

    @Test
    void retryRejectedUnsentAfterAnAttemptThatMayHaveRunIsReportedUnknown() throws Exception {
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.url())
                .commandTimeout(Duration.ofSeconds(5)).build())) {
            String key = KeySchema.of("test").key("worst-outcome");
            redkit.commands().ping();
            // An idempotent SET that reached the server (held there by the pause); the server then dies: attempt 1
            // may have run (UNKNOWN), the retry is rejected at once because nothing is connected (NOT_EXECUTED).
            // The caller must hear UNKNOWN.
            redis.command("CLIENT", "PAUSE", "10000", "WRITE");
            CompletableFuture<Void> set = redkit.commands().setAsync(key, "v".getBytes(StandardCharsets.UTF_8),
                    Duration.ofMinutes(1));
            await().atMost(Duration.ofSeconds(2)).until(() ->
                    String.valueOf(redis.command("CLIENT", "LIST")).contains("cmd=set"));
            redis.kill();

            assertThat(set).failsWithin(Duration.ofSeconds(5)).withThrowableOfType(ExecutionException.class)
                    .havingCause().isInstanceOfSatisfying(RedkitException.class, e -> {
                        assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN);
                        assertThat(e.getSuppressed()).as("the later, unsent attempt")
                                .anySatisfy(s -> assertThat(((RedkitException) s).outcome())
                                        .isEqualTo(Outcome.NOT_EXECUTED));
                    });
            assertThat(redkit.meters().get("redkit.command.retries").counter().count()).isEqualTo(1.0);
        }
    }

    @Test
    void startThatFailsAfterConnectingLeavesNoConnectionAndNoThread() throws Exception {
        SimpleMeterRegistry failing = new SimpleMeterRegistry();
        failing.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (id.getName().startsWith("redkit.pool")) {
                    throw new IllegalStateException("registry refuses " + id.getName());
                }
                return id;
            }
        });
        String name = io.redkit.testing.CommandLog.uniqueClientName("failed-start");
        RedkitConfig config = RedkitConfig.builder().url(redis.url()).clientName(name).meterRegistry(failing).build();
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        for (int i = 0; i < 20; i++) {
            assertThatThrownBy(() -> Redkit.create(config)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("registry refuses");
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(redis.server().clientsNamed(name)).as("connections left by 20 failed starts").isEmpty();
            assertThat(ManagementFactory.getThreadMXBean().getThreadCount())
                    .as("threads after 20 failed starts").isLessThanOrEqualTo(threadsBefore + 2);
        });
    }


}
