package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.redkit.testing.internal.ProcessRegistry;
import io.redkit.testing.internal.RedisBinary;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The binary shipped in the embedded-redis jar, forced with redkit.redis.embedded=true, runs every topology. */
class EmbeddedBinaryIT {

    @BeforeAll
    static void forceEmbeddedBinary() {
        System.setProperty(RedisBinary.EMBEDDED_PROPERTY, "true");
    }

    @AfterAll
    static void restoreBinaryResolution() {
        System.clearProperty(RedisBinary.EMBEDDED_PROPERTY);
    }

    @Test
    void embeddedBinaryServesSetGet() {
        try (RedisServer server = RedisServer.start()) {
            assertThat(server.version()).startsWith("6.2");
            assertThat(server.binary()).startsWith(ProcessRegistry.baseDir().resolve("bin"));
            assertThat(Files.isExecutable(server.binary())).isTrue();
            assertThat(server.command("SET", "k", "v")).isEqualTo("OK");
            assertThat(server.command("GET", "k")).isEqualTo("v");
            server.pause();
            server.resume();
            server.stop();
            server.restart();
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void embeddedBinaryFormsClusterWithoutRedisCli() {
        try (RedisCluster cluster = RedisCluster.start(3, 0)) {
            assertThat(cluster.masters()).hasSize(3).allMatch(m -> m.version().startsWith("6.2"));
            assertThat((String) cluster.nodes().get(0).command("CLUSTER", "INFO")).contains("cluster_slots_assigned:16384");
        }
    }

    @Test
    void embeddedBinaryRunsSentinels() {
        try (RedisSentinelGroup group = RedisSentinelGroup.builder().sentinels(1).start()) {
            assertThat(group.sentinels().get(0).version()).startsWith("6.2");
            assertThat(group.master()).isSameAs(group.dataNodes().get(0));
        }
    }
}
