package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisSentinelExtension;
import io.redkit.testing.RedisServer;
import io.redkit.testing.ReplicationCut;

/**
 * Under Sentinel the replicas that must confirm a write are the Sentinels' list of the master's replicas, not the
 * master's count of those connected: a replica cut off from its master still counts (the write is unconfirmed), one
 * the Sentinels hold down does not; and a WAIT that cannot be satisfied blocks only its own dedicated connection.
 */
class SentinelReplicaAckIT {

    @RegisterExtension
    static final RedisSentinelExtension sentinel = RedisSentinelExtension.create();

    @Test
    void aReplicaCutOffFromItsMasterStillCountsAndTheWaitBlocksOnlyItsConnection() throws Exception {
        try (Redkit redkit = Redkit.connect(sentinel.group().url())) {
            String key = KeySchema.of("test").key("acks", "cut");
            try (DedicatedConnection c = redkit.dedicated()) {
                c.ops().setString(key, "confirmed", Duration.ofMinutes(1));
                assertThat(c.awaitReplicas(Duration.ofSeconds(1), List.of(key))).isEqualTo(new ReplicaAck(1, 1));

                try (ReplicationCut cut = sentinel.group().master().cutReplicationLinks()) {
                    c.ops().setString(key, "only-on-the-master", Duration.ofMinutes(1));
                    CompletableFuture<ReplicaAck> waiting = CompletableFuture.supplyAsync(
                            () -> c.awaitReplicas(Duration.ofSeconds(2), List.of(key)));
                    // The shared connection answers while the WAIT blocks the dedicated one.
                    Awaitility.await().atMost(Duration.ofSeconds(1))
                            .until(() -> cut.command("CLIENT", "LIST").toString().contains("cmd=wait"));
                    assertThat(redkit.commands().getString(key)).contains("only-on-the-master");
                    assertThat(waiting).isNotDone();
                    assertThat(waiting.get(5, TimeUnit.SECONDS)).isEqualTo(new ReplicaAck(1, 0));
                }
            }
        }
    }

    @Test
    void aCountOfTheCallersOwnIsWaitedForWhateverTheTopologyKnows() {
        try (Redkit redkit = Redkit.connect(sentinel.group().url()); DedicatedConnection c = redkit.dedicated()) {
            String key = KeySchema.of("test").key("acks", "count");
            c.ops().setString(key, "v", Duration.ofMinutes(1));
            assertThat(c.awaitReplicas(1, Duration.ofSeconds(1), List.of(key))).isEqualTo(new ReplicaAck(1, 1));
            // The group has one replica: a second one never confirms, and the wait says so after its timeout.
            assertThat(c.awaitReplicas(2, Duration.ofMillis(100), List.of(key))).isEqualTo(new ReplicaAck(2, 1));
            assertThat(c.awaitReplicas(0, Duration.ofMillis(100), List.of(key))).isEqualTo(new ReplicaAck(0, 0));
            assertThatThrownBy(() -> c.awaitReplicas(-1, Duration.ofMillis(100),
                    List.of(key))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was -1");
        }
    }

    @Test
    void aReplicaTheSentinelsHoldDownIsNotWaitedFor() {
        try (Redkit redkit = Redkit.connect(sentinel.group().url())) {
            String key = KeySchema.of("test").key("acks", "down");
            RedisServer replica = sentinel.group().replicas().get(0);
            replica.kill();
            // Down-after is 1 s in the test group: until then it counts, and the write is unconfirmed.
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> awaitOnce(redkit, key).equals(new ReplicaAck(0, 0)));
        }
    }

    private static ReplicaAck awaitOnce(Redkit redkit, String key) {
        try (DedicatedConnection c = redkit.dedicated()) {
            c.ops().setString(key, "v", Duration.ofMinutes(1));
            return c.awaitReplicas(Duration.ofMillis(200), List.of(key));
        }
    }
}
