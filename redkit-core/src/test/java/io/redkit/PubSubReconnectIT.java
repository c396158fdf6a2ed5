package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/**
 * The subscriber connection's view of itself across a drop: it says connected only once every subscription is
 * confirmed again, and the reconnect actions run exactly then, whatever was subscribed or closed meanwhile.
 */
class PubSubReconnectIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @Test
    void closingASubscriptionWhileDisconnectedStillRunsTheReconnectActions() {
        try (Redkit redkit = Redkit.connect(redis.url())) {
            RedisPubSub pubSub = redkit.pubSub();
            List<String> received = new CopyOnWriteArrayList<>();
            AtomicInteger reconnects = new AtomicInteger();
            pubSub.subscribe("kept", (ch, m) -> received.add(new String(m, StandardCharsets.UTF_8)));
            RedisPubSub.Subscription dropped = pubSub.subscribe("dropped", (ch, m) -> { });
            pubSub.onReconnect(reconnects::incrementAndGet);

            redis.kill();
            await().atMost(Duration.ofSeconds(5)).until(() -> !pubSub.isConnected());
            dropped.close();
            redis.restart();

            await().atMost(Duration.ofSeconds(10)).until(() -> reconnects.get() == 1 && pubSub.isConnected());
            redis.command("PUBLISH", "kept", "after");
            await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("after"));
        }
    }

    @Test
    void subscribeThatFailsWhileDisconnectedLeavesNothingBehind() {
        try (Redkit redkit = Redkit.connect(redis.url())) {
            RedisPubSub pubSub = redkit.pubSub();
            AtomicInteger reconnects = new AtomicInteger();
            pubSub.subscribe("existing", (ch, m) -> { });
            pubSub.onReconnect(reconnects::incrementAndGet);

            redis.kill();
            await().atMost(Duration.ofSeconds(5)).until(() -> !pubSub.isConnected());
            assertThatThrownBy(() -> pubSub.subscribe("during-outage", (ch, m) -> { }))
                    .isInstanceOf(RedkitException.class);
            redis.restart();

            await().atMost(Duration.ofSeconds(10)).until(() -> reconnects.get() == 1 && pubSub.isConnected());
        }
    }

    @Test
    void reconnectActionsRunBeforeTheLinkSaysConnected() {
        try (Redkit redkit = Redkit.connect(redis.url())) {
            RedisPubSub pubSub = redkit.pubSub();
            pubSub.subscribe("any", (ch, m) -> { });
            List<Boolean> connectedDuringAction = new CopyOnWriteArrayList<>();
            pubSub.onReconnect(() -> connectedDuringAction.add(pubSub.isConnected()));

            redis.command("CLIENT", "KILL", "TYPE", "pubsub");
            await().atMost(Duration.ofSeconds(10)).until(() -> !connectedDuringAction.isEmpty() && pubSub.isConnected());
            assertThat(connectedDuringAction).containsExactly(false);
        }
    }

    @Test
    void shardedPubSubOnASingleServerIsOneShardWithTheSameReconnectPromise() {
        try (Redkit redkit = Redkit.connect(redis.url())) {
            RedisPubSub sharded = redkit.shardedPubSub();
            List<String> received = new CopyOnWriteArrayList<>();
            AtomicInteger reconnects = new AtomicInteger();
            sharded.subscribe("orders", (ch, m) -> received.add(new String(m, StandardCharsets.UTF_8)));
            sharded.onReconnect(reconnects::incrementAndGet);

            assertThat(redkit.commands().spublish("orders", "one".getBytes(StandardCharsets.UTF_8))).isEqualTo(1);
            assertThat(redkit.commands().publish("orders", "classic".getBytes(StandardCharsets.UTF_8))).isZero();
            await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("one"));

            redis.command("CLIENT", "KILL", "TYPE", "pubsub");
            await().atMost(Duration.ofSeconds(10)).until(() -> reconnects.get() == 1 && sharded.isConnected());
            redkit.commands().spublish("orders", "two".getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("two"));
            assertThat(received).containsExactly("one", "two");
        }
    }

    @Test
    void reconnectActionsRunOffTheIoThreadSoTheyMayCallRedis() {
        try (Redkit redkit = Redkit.connect(redis.url())) {
            for (RedisPubSub pubSub : List.of(redkit.pubSub(), redkit.shardedPubSub())) {
                pubSub.subscribe("resync", (ch, m) -> { });
                List<String> threads = new CopyOnWriteArrayList<>();
                List<String> read = new CopyOnWriteArrayList<>();
                pubSub.onReconnect(() -> {
                    threads.add(Thread.currentThread().getName());
                    redkit.commands().setString("resync:mark", "flushed", Duration.ofMinutes(1));
                    read.add(redkit.commands().getString("resync:mark").orElse("none"));
                });

                redis.command("CLIENT", "KILL", "TYPE", "pubsub");

                await().atMost(Duration.ofSeconds(10)).until(() -> !read.isEmpty() && pubSub.isConnected());
                assertThat(read).containsExactly("flushed");
                assertThat(threads).noneMatch(name -> name.startsWith("lettuce-"));
            }
        }
    }
}
