package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redkit.testing.RedisServerExtension;

/** Closing drains what is in flight; meters land in the registry the user gave. */
class LifecycleIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @Test
    void closeLetsCallsInFlightFinishAndRefusesNewOnes() {
        Redkit redkit = Redkit.connect(redis.server().url());
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            writes.add(redkit.commands().setAsync("drain:" + i, "v".getBytes(StandardCharsets.UTF_8),
                    Duration.ofMinutes(1)));
        }
        redkit.close();
        assertThat(writes).allSatisfy(f -> assertThat(f).isCompleted().isNotCompletedExceptionally());
        assertThat(redis.server().command("EXISTS", "drain:499")).isEqualTo(1L);
        assertThatThrownBy(() -> redkit.commands().get("drain:1"))
                .isInstanceOfSatisfying(RedisUnavailableException.class,
                        e -> assertThat(e.outcome()).isEqualTo(Outcome.NOT_EXECUTED));
        redkit.close();
    }

    @Test
    void commandLatencyAndPoolMetersGoToTheGivenRegistry() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RedkitConfig config = RedkitConfig.builder().url(redis.server().url()).name("orders").meterRegistry(registry)
                .build();
        try (Redkit redkit = Redkit.create(config)) {
            redkit.commands().get("metrics:absent");
            redkit.background().get("metrics:absent");
            try (DedicatedConnection c = redkit.dedicated()) {
                assertThat(registry.get("redkit.pool.active").tag("client", "orders").gauge().value()).isEqualTo(1.0);
                c.ops().ping();
            }
            assertThat(registry.get("redkit.pool.idle").gauge().value()).isEqualTo(1.0);
            assertThat(registry.get("redkit.command.latency").tags("client", "orders", "profile", "request",
                    "command", "GET").timer().count()).isEqualTo(1);
            assertThat(registry.get("redkit.command.latency").tags("profile", "background", "command", "GET")
                    .timer().count()).isEqualTo(1);
            assertThat(registry.get("redkit.command.latency").tags("command", "PING").timer().count())
                    .isEqualTo(1);
        }
    }
}
