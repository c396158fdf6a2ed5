package io.redkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.redkit.RedkitConfig;
import io.redkit.testing.RedisServerExtension;

/** The sync and reactive facades that a connection leaves to first use still answer, and are built once. */
class LazyFacadeConnectionIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    private final ClientResources resources = DefaultClientResources.create();
    private final LettuceConnector connector =
            LettuceConnector.create(RedkitConfig.builder().url(redis.url()).build(), resources);

    @AfterEach
    void shutdown() {
        connector.shutdown(Duration.ofSeconds(2));
        resources.shutdown();
    }

    @Test
    void syncAndReactiveAnswerWhenFirstAskedForAndStayTheSame() {
        @SuppressWarnings("unchecked")
        StatefulRedisConnection<String, byte[]> connection =
                (StatefulRedisConnection<String, byte[]>) connector.connect();
        byte[] value = "v".getBytes(StandardCharsets.UTF_8);

        assertThat(connection.sync().set("lazy-facade", value)).isEqualTo("OK");
        assertThat(connection.reactive().get("lazy-facade").block(Duration.ofSeconds(5))).isEqualTo(value);
        assertThat(connection.sync()).isSameAs(connection.sync());
        assertThat(connection.reactive()).isSameAs(connection.reactive());
        assertThat(redis.server().command("GET", "lazy-facade")).isEqualTo("v");
    }
}
