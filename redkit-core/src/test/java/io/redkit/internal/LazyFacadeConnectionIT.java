package io.redkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.redkit.RedkitConfig;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisCluster;
import io.redkit.testing.RedisServerExtension;

/**
 * The sync and reactive facades that connections leave to first use still answer, and are built once: on a
 * standalone connection, on a Cluster connection and on a Cluster node's connection.
 */
class LazyFacadeConnectionIT {

    private static final String KEY = "lazy-facade";
    private static final byte[] VALUE = "v".getBytes(StandardCharsets.UTF_8);

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @RegisterExtension
    static final DeploymentExtension<RedisCluster> cluster = DeploymentExtension.cluster();

    private final ClientResources resources = DefaultClientResources.create();
    private LettuceConnector connector;

    @AfterEach
    void shutdown() {
        connector.shutdown(Duration.ofSeconds(2));
        resources.shutdown();
    }

    @Test
    void syncAndReactiveAnswerWhenFirstAskedForAndStayTheSame() {
        connector = LettuceConnector.create(RedkitConfig.builder().url(redis.url()).build(), resources);
        @SuppressWarnings("unchecked")
        StatefulRedisConnection<String, byte[]> connection =
                (StatefulRedisConnection<String, byte[]>) connector.connect();

        assertThat(connection.sync().set(KEY, VALUE)).isEqualTo("OK");
        assertThat(connection.reactive().get(KEY).block(Duration.ofSeconds(5))).isEqualTo(VALUE);
        assertThat(connection.sync()).isSameAs(connection.sync());
        assertThat(connection.reactive()).isSameAs(connection.reactive());
        assertThat(redis.server().command("GET", KEY)).isEqualTo("v");
    }

    @Test
    void clusterAndNodeFacadesAnswerWhenFirstAskedForAndStayTheSame() {
        connector = LettuceConnector.create(RedkitConfig.builder().url(cluster.url()).build(), resources);
        StatefulRedisClusterConnection<String, byte[]> connection =
                (StatefulRedisClusterConnection<String, byte[]>) connector.connect();

        assertThat(connection.sync().set(KEY, VALUE)).isEqualTo("OK");
        assertThat(connection.reactive().get(KEY).block(Duration.ofSeconds(5))).isEqualTo(VALUE);
        assertThat(connection.sync()).isSameAs(connection.sync());
        assertThat(connection.reactive()).isSameAs(connection.reactive());
        RedisClusterNode owner = connection.getPartitions().getMasterBySlot(SlotHash.getSlot(KEY));
        StatefulRedisConnection<String, byte[]> node =
                connection.getConnection(owner.getUri().getHost(), owner.getUri().getPort());
        assertThat(node.sync().get(KEY)).isEqualTo(VALUE);
        assertThat(node.reactive().get(KEY).block(Duration.ofSeconds(5))).isEqualTo(VALUE);
    }
}
