package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/**
 * A non-idempotent command whose first copy may have run must never be sent again, and only the connection that
 * dropped may fail the commands waiting on it. With {@code REJECT_COMMANDS}, Lettuce 7.7 completes the commands in
 * flight on a dropped connection with "Connection disconnected" instead of replaying them after the reconnect
 * ({@code DefaultEndpoint.notifyDrainQueuedCommands}); these tests pin that on a real server.
 */
class NoBlindResendIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @Test
    void incrInFlightWhenTheConnectionDropsFailsAsUnknownAndIsNotResent() throws Exception {
        try (Redkit redkit = Redkit.connect(redis.server().url())) {
            String counter = KeySchema.of("test").key("resend", "counter");
            redkit.commands().setString(counter, "0", Duration.ofMinutes(1));
            long clientId = redkit.commands().execute("CLIENT ID", Idempotency.IDEMPOTENT, c -> c.clientId());

            // Writes wait on the server while paused; the INCR is then on the wire, its reply outstanding.
            redis.server().command("CLIENT", "PAUSE", "5000", "WRITE");
            CompletableFuture<Long> incr = redkit.commands().withTimeout(Duration.ofSeconds(5))
                    .executeAsync("INCR", Idempotency.NON_IDEMPOTENT, c -> c.incr(counter));
            await().atMost(Duration.ofSeconds(2)).until(() ->
                    String.valueOf(redis.server().command("CLIENT", "LIST")).contains("cmd=incr"));
            redis.server().command("CLIENT", "KILL", "ID", String.valueOf(clientId));

            Throwable failure = null;
            try {
                incr.get(3, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failure = e.getCause();
            }
            assertThat(failure).isInstanceOfSatisfying(RedisUnavailableException.class,
                    e -> assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN));

            redis.server().command("CLIENT", "UNPAUSE");
            await().atMost(Duration.ofSeconds(5)).ignoreExceptions()
                    .until(() -> "PONG".equals(redkit.commands().ping()));
            assertThat(redkit.commands().getString(counter)).as("INCR must not be re-sent").contains("0");
        }
    }

    @Test
    void closingOtherConnectionsLeavesAnIncrInFlightOnTheSharedOneAlone() throws Exception {
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.server().url())
                .dedicatedPool(new DedicatedPoolConfig(2, 1, Duration.ofMillis(300))).build())) {
            String counter = KeySchema.of("test").key("scope", "counter");
            redkit.commands().setString(counter, "0", Duration.ofMinutes(1));
            redkit.pubSub().subscribe("scope-test", (ch, m) -> { });
            DedicatedConnection first = redkit.dedicated();
            DedicatedConnection second = redkit.dedicated();
            first.ops().ping();
            second.ops().ping();

            redis.server().command("CLIENT", "PAUSE", "5000", "WRITE");
            CompletableFuture<Long> incr = redkit.commands().withTimeout(Duration.ofSeconds(5))
                    .executeAsync("INCR", Idempotency.NON_IDEMPOTENT, c -> c.incr(counter));
            await().atMost(Duration.ofSeconds(2)).until(() ->
                    String.valueOf(redis.server().command("CLIENT", "LIST")).contains("cmd=incr"));
            first.close();
            second.close(); // the idle pool holds one: this one is closed
            redis.server().command("CLIENT", "KILL", "TYPE", "pubsub"); // the subscriber drops and reconnects
            redis.server().command("CLIENT", "UNPAUSE");

            assertThat(incr.get(5, TimeUnit.SECONDS)).as("the INCR on the shared connection ran once").isEqualTo(1L);
            assertThat(redkit.commands().getString(counter)).contains("1");
        }
    }
}
