package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link ClientContract} on one real redis-server. */
class StandaloneClientIT extends ClientContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneClientIT() {
        super(redis);
    }

    @Test
    void subscriberLearnsOfAReconnectAndIsSubscribedAgain() {
        Redkit subscriber = client();
        String channel = unique("reconnect");
        List<String> received = new CopyOnWriteArrayList<>();
        AtomicInteger reconnects = new AtomicInteger();
        subscriber.pubSub().subscribe(channel, (ch, m) -> received.add(new String(m, StandardCharsets.UTF_8)));
        subscriber.pubSub().onReconnect(reconnects::incrementAndGet);

        assertThat(subscriber.pubSub().isConnected()).isTrue();
        redis.get().kill();
        await().atMost(Duration.ofSeconds(5)).until(() -> !subscriber.pubSub().isConnected());
        redis.get().restart();

        // Messages published while it was away are gone; the listener hears of the gap instead.
        await().atMost(Duration.ofSeconds(10)).until(() -> reconnects.get() == 1);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            redis.get().command("PUBLISH", channel, "after");
            return received.contains("after");
        });
        assertThat(reconnects).hasValue(1);
        assertThat(subscriber.pubSub().isConnected()).isTrue();
    }
}
