package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.redkit.lock.redlock.RedlockConfig;

/** The configuration refuses a bad value at once and names it; the defaults are the documented ones. */
class LockConfigTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        LockConfig config = LockConfig.defaults();
        assertThat(config.namespace()).isEqualTo("lock");
        assertThat(config.ttl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.watchdog()).isTrue();
        assertThat(config.clockDrift()).isEqualTo(Duration.ofMillis(302));
        assertThat(config.fencing().mode()).isEqualTo(Fencing.Mode.REDIS_COUNTER);
        assertThat(config.maxWait()).isEqualTo(LockConfig.DEFAULT_MAX_WAIT);
        assertThat(config.wakeOnRelease()).isTrue();
        assertThat(config.tagLockNames()).isFalse();
    }

    @Test
    void ttlMustBePositiveAndAtLeastTheMinimum() {
        assertThatThrownBy(() -> LockConfig.builder().ttl(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ttl").hasMessageContaining("PT0S");
        assertThatThrownBy(() -> LockConfig.builder().ttl(Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ttl");
        assertThatThrownBy(() -> LockConfig.builder().ttl(Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 100 ms");
        assertThatThrownBy(() -> LockConfig.builder().ttl(Duration.ofMillis(99)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 100 ms");
        assertThatThrownBy(() -> LockConfig.builder().ttl(Duration.ofMillis(299)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too short for the watchdog")
                .hasMessageContaining("300 ms");
        assertThat(LockConfig.builder().ttl(Duration.ofMillis(100)).watchdog(false).build().ttl())
                .isEqualTo(Duration.ofMillis(100));
        assertThatThrownBy(() -> LockConfig.builder().ttl(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("ttl");
    }

    @Test
    void durationsTooLargeForNanosecondsAreRefusedByName() {
        Duration forever = Duration.ofSeconds(Long.MAX_VALUE);
        assertThatThrownBy(() -> LockConfig.builder().ttl(forever)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ttl").hasMessageContaining("at most");
        assertThatThrownBy(() -> LockConfig.builder().maxWait(forever)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxWait");
        assertThatThrownBy(() -> LockConfig.builder().clockDrift(forever))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clockDrift");
        assertThatThrownBy(() -> LockConfig.builder().backoff(Duration.ofMillis(1), forever))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("backoff max");
        assertThatThrownBy(() -> LockConfig.builder().fenceRetention(forever))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fenceRetention");
        assertThatThrownBy(() -> RedlockConfig.builder().ttl(forever)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ttl");
    }

    @Test
    void locksRefuseReplicaReads() {
        assertThatThrownBy(() -> LockConfig.builder().readFrom(io.redkit.ReadFrom.REPLICA_PREFERRED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("master");
        assertThat(LockConfig.builder().readFrom(io.redkit.ReadFrom.MASTER).build().ttl())
                .isEqualTo(LockConfig.DEFAULT_TTL);
    }

    @Test
    void otherBadValuesAreNamed() {
        assertThatThrownBy(() -> LockConfig.builder().namespace("")).hasMessageContaining("namespace");
        assertThatThrownBy(() -> LockConfig.builder().namespace("a:b")).hasMessageContaining("'a:b'");
        assertThatThrownBy(() -> LockConfig.builder().maxWait(Duration.ofSeconds(-1))).hasMessageContaining("maxWait");
        assertThatThrownBy(() -> LockConfig.builder().clockDrift(Duration.ofMillis(-1)))
                .hasMessageContaining("clockDrift");
        assertThatThrownBy(() -> LockConfig.builder().backoff(Duration.ofMillis(10), Duration.ofMillis(5)))
                .hasMessageContaining("backoff max");
        assertThatThrownBy(() -> LockConfig.builder().backoff(Duration.ZERO, Duration.ofMillis(5)))
                .hasMessageContaining("backoff min");
        assertThatThrownBy(() -> LockConfig.builder().fenceRetention(Duration.ofMinutes(5)))
                .hasMessageContaining("fenceRetention");
        assertThatThrownBy(() -> LockConfig.builder().fencing(null)).hasMessageContaining("fencing");
        assertThatThrownBy(() -> Fencing.external(null)).hasMessageContaining("fencing token source");
    }

    @Test
    void driftThatEatsTheLeaseBeforeTheFirstExtensionIsRefused() {
        assertThatThrownBy(() -> LockConfig.builder().ttl(Duration.ofMillis(300)).clockDrift(Duration.ofMillis(100))
                .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clockDrift (PT0.1S)")
                .hasMessageContaining("third of the ttl");
        assertThat(LockConfig.builder().ttl(Duration.ofMillis(301)).clockDrift(Duration.ofMillis(100)).build()
                .clockDrift()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void derivedDriftFollowsTheTtlUnlessSetExplicitly() {
        LockConfig derived = LockConfig.builder().ttl(Duration.ofSeconds(1)).build();
        assertThat(derived.clockDrift()).isEqualTo(Duration.ofMillis(12));
        assertThat(derived.toBuilder().ttl(Duration.ofSeconds(10)).build().clockDrift())
                .isEqualTo(Duration.ofMillis(102));
        LockConfig explicit = LockConfig.builder().clockDrift(Duration.ofMillis(50)).build();
        assertThat(explicit.toBuilder().ttl(Duration.ofSeconds(10)).build().clockDrift())
                .isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void redlockConfigRefusesANodeTimeoutThatSpendsTheLease() {
        assertThatThrownBy(() -> RedlockConfig.builder().ttl(Duration.ofMillis(100)).nodeTimeout(Duration.ofMillis(100))
                .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nodeTimeout");
        assertThatThrownBy(() -> RedlockConfig.builder().ttl(Duration.ZERO)).hasMessageContaining("ttl");
        assertThat(RedlockConfig.builder().build().nodeTimeout()).isEqualTo(Duration.ofMillis(50));
    }
}
