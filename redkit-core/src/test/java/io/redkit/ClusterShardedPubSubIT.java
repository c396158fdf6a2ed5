package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.cluster.SlotHash;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisServer;

/**
 * Sharded pub/sub on a real 3+3 Cluster: each subscription sits on the master that owns its channel's slot, and
 * follows the slot when a failover or a resharding moves it, telling its listeners that messages may have been
 * missed meanwhile.
 */
class ClusterShardedPubSubIT {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    private final List<Redkit> clients = new ArrayList<>();

    private Redkit client() {
        Redkit redkit = Redkit.connect(cluster.get().url());
        clients.add(redkit);
        return redkit;
    }

    @AfterEach
    void closeClients() {
        clients.forEach(Redkit::close);
        clients.clear();
    }

    /** What a subscriber saw: the messages' text, and how often it was told it may have missed some. */
    private static final class Inbox implements RedisPubSub.Listener {
        final List<String> received = new CopyOnWriteArrayList<>();
        final AtomicInteger reconnects = new AtomicInteger();

        Inbox(RedisPubSub pubSub) {
            pubSub.onReconnect(reconnects::incrementAndGet);
        }

        @Override
        public void onMessage(String channel, byte[] message) {
            received.add(new String(message, StandardCharsets.UTF_8));
        }
    }

    /** A channel name whose slot {@code master} owns. */
    private static String channelOn(RedisServer master) {
        for (int i = 0; ; i++) {
            String channel = "signals:" + UUID.randomUUID() + ":" + i;
            if (cluster.get().masterForSlot(SlotHash.getSlot(channel)).port() == master.port()) {
                return channel;
            }
        }
    }

    private static long shardSubscribers(RedisServer node, String channel) {
        List<?> reply = (List<?>) node.command("PUBSUB", "SHARDNUMSUB", channel);
        return (Long) reply.get(1);
    }

    private static void holdFor(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void eachSubscriptionSitsOnTheMasterThatOwnsItsChannel() {
        Redkit subscriber = client();
        Redkit publisher = client();
        List<String> received = new CopyOnWriteArrayList<>();
        List<String> channels = new ArrayList<>();
        for (RedisServer master : cluster.get().masters()) {
            String channel = channelOn(master);
            channels.add(channel);
            subscriber.shardedPubSub().subscribe(channel, (ch, m) -> received.add(ch));
        }

        for (String channel : channels) {
            RedisServer owner = cluster.get().masterForKey(channel);
            for (RedisServer master : cluster.get().masters()) {
                assertThat(shardSubscribers(master, channel)).as("SHARDNUMSUB on %s", master)
                        .isEqualTo(master.port() == owner.port() ? 1 : 0);
            }
            assertThat(publisher.commands().spublish(channel, bytes("hello"))).isEqualTo(1);
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == channels.size());
        assertThat(received).containsExactlyInAnyOrderElementsOf(channels);
        assertThat(subscriber.shardedPubSub().isConnected()).isTrue();
    }

    @Test
    void aSubscriptionFollowsItsSlotThroughAFailover() {
        RedisServer owner = cluster.get().masters().get(0);
        String channel = channelOn(owner);
        followsItsSlot(channel, () -> cluster.get().failover(cluster.get().replicaOf(owner)));
    }

    @Test
    void aSubscriptionFollowsItsSlotThroughAResharding() {
        RedisServer owner = cluster.get().masters().get(1);
        String channel = channelOn(owner);
        RedisServer target = cluster.get().masters().stream().filter(m -> m.port() != owner.port()).findFirst()
                .orElseThrow();
        followsItsSlot(channel, () -> cluster.get().migrateSlot(SlotHash.getSlot(channel), target));
    }

    private void followsItsSlot(String channel, Runnable move) {
        Redkit subscriber = client();
        Redkit publisher = client();
        RedisPubSub pubSub = subscriber.shardedPubSub();
        Inbox inbox = new Inbox(pubSub);
        List<String> received = inbox.received;
        AtomicInteger reconnects = inbox.reconnects;
        pubSub.subscribe(channel, inbox);
        publisher.commands().spublish(channel, bytes("before"));
        await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("before"));

        move.run();

        RedisServer newOwner = cluster.get().masterForKey(channel);
        await().atMost(Duration.ofSeconds(10)).until(() -> reconnects.get() == 1 && pubSub.isConnected());
        // On the new master, or on a replica of it (the demoted master after a failover): both carry the shard.
        assertThat(shardSubscribers(newOwner, channel) + shardSubscribers(cluster.get().replicaOf(newOwner), channel))
                .isEqualTo(1);
        // A replica's subscribers are not counted by the master's SPUBLISH reply, so the count says nothing here.
        publisher.commands().spublish(channel, bytes("after"));
        await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("after"));
        holdFor(Duration.ofSeconds(2)); // Lettuce's slot map catches up meanwhile: the subscription must not move again
        assertThat(received).containsExactly("before", "after");
        assertThat(reconnects).hasValue(1);
        assertThat(pubSub.isConnected()).isTrue();
    }

    @Test
    void aDroppedNodeConnectionIsReportedOnceItIsSubscribedAgain() {
        Redkit subscriber = client();
        RedisPubSub pubSub = subscriber.shardedPubSub();
        RedisServer owner = cluster.get().masters().get(2);
        String channel = channelOn(owner);
        Inbox inbox = new Inbox(pubSub);
        List<String> received = inbox.received;
        AtomicInteger reconnects = inbox.reconnects;
        pubSub.subscribe(channel, inbox);

        owner.command("CLIENT", "KILL", "TYPE", "pubsub");

        await().atMost(Duration.ofSeconds(10)).until(() -> reconnects.get() == 1 && pubSub.isConnected());
        assertThat(client().commands().spublish(channel, bytes("after"))).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("after"));
    }

    @Test
    void closingTheLastSubscriptionLeavesTheShard() {
        Redkit subscriber = client();
        RedisServer owner = cluster.get().masters().get(0);
        String channel = channelOn(owner);
        RedisPubSub.Subscription first = subscriber.shardedPubSub().subscribe(channel, (ch, m) -> { });
        RedisPubSub.Subscription second = subscriber.shardedPubSub().subscribe(channel, (ch, m) -> { });

        first.close();
        assertThat(shardSubscribers(owner, channel)).isEqualTo(1);
        second.close();

        await().atMost(Duration.ofSeconds(5)).until(() -> shardSubscribers(owner, channel) == 0);
    }

    @Test
    void channelsOfSeveralSlotsOnOneNodeAreAllSubscribedAgainAfterADrop() {
        Redkit subscriber = client();
        RedisPubSub pubSub = subscriber.shardedPubSub();
        RedisServer owner = cluster.get().masters().get(1);
        String first = channelOn(owner);
        String second = channelOn(owner);
        while (SlotHash.getSlot(second) == SlotHash.getSlot(first)) {
            second = channelOn(owner);
        }
        List<String> received = new CopyOnWriteArrayList<>();
        AtomicInteger reconnects = new AtomicInteger();
        pubSub.subscribe(first, (ch, m) -> received.add(ch));
        pubSub.subscribe(second, (ch, m) -> received.add(ch));
        pubSub.onReconnect(reconnects::incrementAndGet);

        // Lettuce re-subscribes both in one SSUBSCRIBE, which the server refuses: they span two slots.
        owner.command("CLIENT", "KILL", "TYPE", "pubsub");

        await().atMost(Duration.ofSeconds(10)).until(() -> reconnects.get() == 1 && pubSub.isConnected());
        assertThat(shardSubscribers(owner, first)).isEqualTo(1);
        assertThat(shardSubscribers(owner, second)).isEqualTo(1);
        Redkit publisher = client();
        publisher.commands().spublish(first, bytes("a"));
        publisher.commands().spublish(second, bytes("b"));
        String secondChannel = second;
        await().atMost(Duration.ofSeconds(5)).until(() -> received.containsAll(List.of(first, secondChannel)));
    }

    @Test
    void leavingAChannelAndTakingItAgainIsNotTakenForAMove() {
        Redkit subscriber = client();
        RedisPubSub pubSub = subscriber.shardedPubSub();
        RedisServer owner = cluster.get().masters().get(2);
        String channel = channelOn(owner);
        Inbox inbox = new Inbox(pubSub);
        List<String> received = inbox.received;
        AtomicInteger reconnects = inbox.reconnects;

        pubSub.subscribe(channel, (ch, m) -> { }).close();
        pubSub.subscribe(channel, inbox);

        holdFor(Duration.ofSeconds(1)); // the reply to the SUNSUBSCRIBE has long arrived
        assertThat(pubSub.isConnected()).isTrue();
        assertThat(shardSubscribers(owner, channel)).isEqualTo(1);
        client().commands().spublish(channel, bytes("still here"));
        await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("still here"));
        assertThat(reconnects).hasValue(0);
    }
}
