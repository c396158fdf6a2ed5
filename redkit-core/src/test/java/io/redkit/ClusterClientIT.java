package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.cluster.SlotHash;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisServer;

/** {@link ClientContract} on a real 3-master/3-replica Cluster, plus redirects after topology changes. */
class ClusterClientIT extends ClientContract {

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    ClusterClientIT() {
        super(cluster);
    }

    private static RedisCluster cluster() {
        return cluster.get();
    }

    @Test
    void movedAfterSlotMigrationIsFollowed() {
        RedisOps redis = client().commands();
        String key = unique("migrating");
        redis.setString(key, "before", Duration.ofMinutes(5));
        int slot = SlotHash.getSlot(key);
        RedisServer owner = cluster().masterForSlot(slot);
        RedisServer target = cluster().masters().stream().filter(m -> m.port() != owner.port()).findFirst()
                .orElseThrow();

        cluster().migrateSlot(slot, target);

        assertThat(cluster().masterForSlot(slot).port()).isEqualTo(target.port());
        assertThat(redis.getString(key)).contains("before");
        redis.setString(key, "after", Duration.ofMinutes(5));
        assertThat(target.command("GET", key)).isEqualTo("after");
    }

    @Test
    void movedAfterFailoverIsFollowed() {
        RedisOps redis = client().commands();
        String key = unique("failover-" + UUID.randomUUID());
        redis.setString(key, "v1", Duration.ofMinutes(5));
        RedisServer oldMaster = cluster().masterForKey(key);
        RedisServer replica = cluster().replicaOf(oldMaster);

        long start = System.nanoTime();
        cluster().failover(replica);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                .untilAsserted(() -> {
                    redis.setString(key, "v2", Duration.ofMinutes(5));
                    assertThat(replica.command("GET", key)).isEqualTo("v2");
                });
        System.out.printf("[figures] ClusterClientIT writes reached the promoted replica %d ms after"
                + " CLUSTER FAILOVER began%n", Duration.ofNanos(System.nanoTime() - start).toMillis());
        assertThat(redis.getString(key)).contains("v2");
    }
}
