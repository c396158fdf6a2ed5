package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Deployment} promises, on each topology: its URL reaches the server that {@code serverOf}
 * names, its lists describe the topology, and {@code healAll} undoes a pause or a kill of that server.
 */
abstract class DeploymentContract {

    private final Deployment deployment;

    DeploymentContract(Deployment deployment) {
        this.deployment = deployment;
    }

    @Test
    void writeThroughTheUrlLandsOnTheServerOfItsKey() {
        String key = "deployment:" + UUID.randomUUID();

        write(key, "through-url");

        assertThat(deployment.serverOf(key).command("GET", key)).isEqualTo("through-url");
        assertThat(deployment.masters()).contains(deployment.serverOf(key));
    }

    @Test
    void mastersAndReplicasAreTheDataNodes() {
        List<RedisServer> both = new ArrayList<>(deployment.masters());
        both.addAll(deployment.replicas());

        assertThat(both).containsExactlyInAnyOrderElementsOf(deployment.nodes()).doesNotHaveDuplicates();
        assertThat(deployment.masters()).isNotEmpty();
    }

    @Test
    void pausedServerOfAKeyIsResumedByHealAll() {
        String key = "paused:" + UUID.randomUUID();
        RedisServer owner = deployment.serverOf(key);

        deployment.pauseServerOf(key);
        assertThat(owner.isPaused()).isTrue();
        deployment.healAll();

        assertThat(owner.isPaused()).isFalse();
        assertServesAgain(owner, key);
    }

    @Test
    void killedServerOfAKeyIsRestartedByHealAll() {
        String key = "killed:" + UUID.randomUUID();
        RedisServer owner = deployment.serverOf(key);

        deployment.killServerOf(key);
        assertThat(owner.isRunning()).isFalse();
        deployment.healAll();

        assertThat(owner.isRunning()).isTrue();
        assertServesAgain(owner, key);
    }

    @Test
    void adminCommandRunsOnEveryDataNode() {
        String script = "return '" + UUID.randomUUID() + "'";

        deployment.onEveryDataNode("SCRIPT", "LOAD", script);

        String sha = (String) deployment.masters().get(0).command("SCRIPT", "LOAD", script);
        for (RedisServer node : deployment.nodes()) {
            assertThat(node.command("SCRIPT", "EXISTS", sha)).as("node %s", node).isEqualTo(List.of(1L));
        }
    }

    private void assertServesAgain(RedisServer owner, String key) {
        assertThat(owner.command("PING")).isEqualTo("PONG");
        write(key, "after-heal");
        assertThat(deployment.serverOf(key).command("GET", key)).isEqualTo("after-heal");
    }

    private void write(String key, String value) {
        if (deployment.kind() == Deployment.Kind.CLUSTER) {
            // A Cluster URL is a seed list; Lettuce's cluster client takes one URI per seed.
            List<RedisURI> seeds = Arrays.stream(deployment.url().substring("redis://".length()).split(","))
                    .map(hostPort -> RedisURI.create("redis://" + hostPort)).toList();
            RedisClusterClient client = RedisClusterClient.create(seeds);
            try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
                connection.sync().set(key, value);
            } finally {
                LettuceClients.shutdown(client);
            }
            return;
        }
        RedisClient client = LettuceClients.of(RedisURI.create(deployment.url()));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set(key, value);
        } finally {
            LettuceClients.shutdown(client);
        }
    }
}
