package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisSentinelGroupIT {

    @RegisterExtension
    static final RedisSentinelExtension sentinel = RedisSentinelExtension.create();

    @Test
    void groupStartsWithOneMasterOneReplicaAndThreeSentinels() {
        RedisSentinelGroup group = sentinel.group();
        assertThat(group.masterName()).isEqualTo("redkit");
        assertThat(group.dataNodes()).hasSize(2);
        assertThat(group.sentinels()).hasSize(3);
        assertThat(group.replicas()).hasSize(1).doesNotContain(group.master());
        assertThat(group.master().command("ROLE")).asInstanceOf(InstanceOfAssertFactories.LIST).first().isEqualTo("master");
        String sentinels = String.join(",", group.sentinels().stream().map(s -> "127.0.0.1:" + s.port()).toList());
        assertThat(group.url()).isEqualTo("redis-sentinel://" + sentinels + "#redkit");
    }

    @Test
    void failoverMovesWritesMadeThroughSentinelUriToTheNewMaster() {
        RedisServer old = sentinel.master();

        sentinel.failover();

        RedisServer promoted = sentinel.master();
        assertThat(promoted).isNotSameAs(old);
        assertThat(promoted.command("ROLE")).asInstanceOf(InstanceOfAssertFactories.LIST).first().isEqualTo("master");
        List<RedisServer> sentinels = sentinel.sentinels();
        RedisURI uri = RedisURI.Builder.sentinel("127.0.0.1", sentinels.get(0).port(), "redkit")
                .withSentinel("127.0.0.1", sentinels.get(1).port())
                .withSentinel("127.0.0.1", sentinels.get(2).port())
                .build();
        String key = "sentinel:" + UUID.randomUUID();
        write(uri, key);
        assertThat(promoted.command("GET", key)).isEqualTo("written");
    }

    @Test
    void killedMasterIsReplacedByPromotedReplica() {
        RedisServer old = sentinel.master();
        List<RedisServer> replicas = sentinel.replicas();

        old.kill();
        RedisServer promoted = sentinel.awaitNewMaster(old, Duration.ofSeconds(20));

        assertThat(replicas).contains(promoted);
        String key = "sentinel:" + UUID.randomUUID();
        write(RedisURI.create(sentinel.url()), key);
        assertThat(promoted.command("GET", key)).isEqualTo("written");
    }

    @Test
    void aCutReplicationLinkKeepsTheMastersWritesFromItsReplicaUntilClosed() throws Exception {
        RedisServer master = sentinel.master();
        RedisServer replica = sentinel.replicas().get(0);
        String key = "cut:" + UUID.randomUUID();
        RedisClient client = LettuceClients.of(RedisURI.create(master.url()));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            try (ReplicationCut cut = master.cutReplicationLinks()) {
                connection.sync().set(key, "only-on-the-master"); // a connection opened before the cut stays in
                assertThat(connection.sync().waitForReplication(1, 300)).isZero();
                assertThat(replica.command("GET", key)).isNull();
                assertThat(cut.master()).isSameAs(master);
            }
            io.redkit.testing.internal.Poll.until("the replica to catch up after the cut", Duration.ofSeconds(10),
                    () -> "only-on-the-master".equals(replica.command("GET", key)));
            io.redkit.testing.internal.Poll.until("the replica to acknowledge the write", Duration.ofSeconds(10),
                    () -> connection.sync().waitForReplication(1, 100) == 1);
        } finally {
            LettuceClients.shutdown(client);
        }
        assertThat(master.command("PING")).isEqualTo("PONG"); // its former password is back (none)
    }

    @Test
    void stoppedSentinelIsRestartedForTheNextTest() {
        RedisServer stopped = sentinel.sentinels().get(2);
        long started = System.nanoTime();
        stopped.stop();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(stopped.isRunning()).isFalse();
        assertThat(sentinel.master().command("PING")).isEqualTo("PONG");
    }

    private static void write(RedisURI uri, String key) {
        RedisClient client = LettuceClients.of(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set(key, "written");
        } finally {
            LettuceClients.shutdown(client);
        }
    }
}
