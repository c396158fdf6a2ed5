package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A static extension field shares one server across the class and heals it between tests. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisServerExtensionIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone().withArgs("requirepass", "s3cret");

    private static int firstPort;
    private static long firstPid;

    @Test
    @Order(1)
    void firstTestKillsTheServer() {
        firstPort = redis.port();
        firstPid = redis.server().pid();
        redis.command("SET", "shared", "1");
        redis.kill();
        assertThat(redis.server().isRunning()).isFalse();
    }

    @Test
    @Order(2)
    void nextTestFindsItRestartedOnTheSamePort() {
        assertThat(redis.port()).isEqualTo(firstPort);
        assertThat(redis.server().pid()).isNotEqualTo(firstPid);
        assertThat(redis.command("PING")).isEqualTo("PONG");
        assertThat(redis.url()).isEqualTo("redis://127.0.0.1:" + firstPort);
        redis.pause();
    }

    @Test
    @Order(3)
    void pausedServerIsResumedForTheNextTest() {
        assertThat(redis.server().isPaused()).isFalse();
        redis.command("SET", "k", "v");
        redis.flushAll();
        assertThat(redis.command("DBSIZE")).isEqualTo(0L);
    }

    @Nested
    class NestedTests {

        @Test
        void nestedClassSharesTheOuterServer() {
            assertThat(redis.port()).isEqualTo(firstPort);
        }
    }
}
