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
 * Lettuce re-sends commands still waiting for a reply after it reconnects; redkit must not let that happen to
 * a non-idempotent one, whose first copy may already have run.
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
}
