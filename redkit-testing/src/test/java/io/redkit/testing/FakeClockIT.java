package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A server on a fake wall clock: a jump expires its keys and moves its TIME, and a restart keeps the clock. */
class FakeClockIT {

    @BeforeAll
    static void needsLibfaketime() {
        // .ci/run installs Debian's faketime; a machine with nothing but a JDK has none.
        assumeTrue(RedisServer.fakeClockAvailable(), "libfaketime is not installed (apt-get install faketime)");
    }

    @Test
    void aJumpForwardExpiresKeysAndMovesTheServersTime() {
        try (RedisServer jumped = RedisServer.builder().fakeClock().start();
                RedisServer real = RedisServer.start()) {
            jumped.command("SET", "k", "v", "PX", "10000");
            long before = seconds(jumped);

            assertThat(jumped.jumpClock(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(30));

            assertThat(jumped.command("GET", "k")).as("a 10 s key, 30 s later").isNull();
            assertThat(seconds(jumped) - before).isBetween(30L, 40L);
            assertThat(seconds(jumped) - seconds(real)).isBetween(29L, 31L);
            jumped.restart();
            assertThat(seconds(jumped) - seconds(real)).as("the clock survives a restart").isBetween(29L, 31L);
        }
    }

    @Test
    void onlyAFakeClockJumpsAndOnlyByWholeSeconds() {
        try (RedisServer real = RedisServer.start(); RedisServer jumped = RedisServer.builder().fakeClock().start()) {
            assertThatThrownBy(() -> real.jumpClock(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("fakeClock()");
            assertThatThrownBy(() -> jumped.jumpClock(Duration.ofMillis(1500)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static long seconds(RedisServer server) {
        return Long.parseLong(String.valueOf(((List<?>) server.command("TIME")).get(0)));
    }
}
