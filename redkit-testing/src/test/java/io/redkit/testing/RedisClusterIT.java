package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisClusterIT {

    @RegisterExtension
    static final RedisClusterExtension cluster = RedisClusterExtension.create();

    private static RedisClusterClient client;
    private static StatefulRedisClusterConnection<String, String> connection;

    @BeforeAll
    static void connect() {
        client = LettuceClients.cluster(cluster.seedUrls());
        connection = client.connect();
    }

    @AfterAll
    static void disconnect() {
        connection.close();
        LettuceClients.shutdown(client);
    }

    @Test
    void clusterFormsWithAllSlotsThreeMastersAndThreeReplicas() {
        assertThat(cluster.nodes()).hasSize(6);
        assertThat(cluster.masters()).hasSize(3);
        assertThat(cluster.replicas()).hasSize(3).doesNotContainAnyElementsOf(cluster.masters());
        for (RedisServer node : cluster.nodes()) {
            String info = (String) node.command("CLUSTER", "INFO");
            assertThat(info).contains("cluster_state:ok", "cluster_slots_assigned:16384", "cluster_known_nodes:6");
        }
        List<String> masterAddresses = cluster.masters().stream().map(m -> "127.0.0.1:" + m.port()).toList();
        assertThat(cluster.url()).startsWith("redis://").contains(masterAddresses);
        assertThat(cluster.seedUrls()).hasSize(6).allMatch(u -> u.matches("redis://127\\.0\\.0\\.1:\\d+"));
        for (RedisServer master : cluster.masters()) {
            assertThat(cluster.replicaOf(master).command("ROLE")).asInstanceOf(InstanceOfAssertFactories.LIST).startsWith("slave", "127.0.0.1", (long) master.port());
        }
    }

    @Test
    void masterForKeyHonoursHashTags() {
        String key = "{user:" + UUID.randomUUID() + "}:profile";
        RedisServer master = cluster.masterForKey(key);
        assertThat(cluster.cluster().masterForSlot(SlotHash.getSlot(key))).isSameAs(master);
        assertThat(cluster.masterForKey(key.replace(":profile", ":cart"))).isSameAs(master);
        master.command("SET", key, "direct");
        assertThat(connection.sync().get(key)).isEqualTo("direct");
    }

    @Test
    void keyWrittenThroughClusterClientIsReadableAfterFailover() {
        RedisAdvancedClusterCommands<String, String> redis = connection.sync();
        String key = "failover:" + UUID.randomUUID();
        redis.set(key, "before");
        RedisServer oldMaster = cluster.masterForKey(key);
        RedisServer replica = cluster.replicaOf(oldMaster);
        // WAIT makes the replica hold the write before it is promoted.
        oldMaster.command("WAIT", "1", "2000");

        cluster.failover(replica);

        assertThat(cluster.masterForKey(key)).isSameAs(replica);
        assertThat(cluster.replicas()).contains(oldMaster);
        assertThat(redis.get(key)).isEqualTo("before");
        redis.set(key, "after");
        assertThat(replica.command("GET", key)).isEqualTo("after");
    }

    @Test
    void keyWrittenThroughClusterClientIsReadableAfterSlotMigration() {
        RedisAdvancedClusterCommands<String, String> redis = connection.sync();
        String tag = "{migrate:" + UUID.randomUUID() + "}";
        for (int i = 0; i < 250; i++) {
            redis.set(tag + i, "v" + i);
        }
        int slot = SlotHash.getSlot(tag);
        RedisServer source = cluster.masterForKey(tag);
        RedisServer target = cluster.masters().stream().filter(m -> m != source).findFirst().orElseThrow();

        cluster.migrateSlot(slot, target);

        assertThat(cluster.cluster().masterForSlot(slot)).isSameAs(target);
        assertThat(target.command("CLUSTER", "COUNTKEYSINSLOT", String.valueOf(slot))).isEqualTo(250L);
        assertThat(source.command("CLUSTER", "COUNTKEYSINSLOT", String.valueOf(slot))).isEqualTo(0L);
        for (int i = 0; i < 250; i++) {
            assertThat(redis.get(tag + i)).isEqualTo("v" + i);
        }
    }

    @Test
    void killedMasterIsRestartedForTheNextTest() {
        RedisServer master = cluster.masters().get(0);
        master.kill();
        assertThat(master.isRunning()).isFalse();
        // The extension restarts it after this test and waits until the cluster is stable again.
    }
}
