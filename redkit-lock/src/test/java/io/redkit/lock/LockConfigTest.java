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
        assertThat(config.replicaAcks()).isEqualTo(ReplicaAcks.auto());
        assertThat(config.replicaAckTimeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void replicaAcksAreNoneAutoOrAPositiveCount() {
        assertThat(ReplicaAcks.of(2).mode()).isEqualTo(ReplicaAcks.Mode.COUNT);
        assertThat(ReplicaAcks.of(2).count()).isEqualTo(2);
        assertThat(ReplicaAcks.of(2)).isEqualTo(ReplicaAcks.of(2)).isNotEqualTo(ReplicaAcks.of(1));
        assertThat(ReplicaAcks.none().mode()).isEqualTo(ReplicaAcks.Mode.NONE);
        assertThatThrownBy(() -> ReplicaAcks.of(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replicaAcks").hasMessageContaining("was 0")
                .hasMessageContaining("ReplicaAcks.none()");
        assertThatThrownBy(() -> ReplicaAcks.of(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was -1");
        assertThatThrownBy(() -> LockConfig.builder().replicaAcks(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("replicaAcks");
    }

    @Test
    void replicaAckTimeoutIsPositiveBoundedAndAtMostAThirdOfTheTtl() {
        assertThatThrownBy(() -> LockConfig.builder().replicaAckTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replicaAckTimeout")
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> LockConfig.builder().replicaAckTimeout(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replicaAckTimeout");
        assertThatThrownBy(() -> LockConfig.builder().replicaAckTimeout(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("replicaAckTimeout");
        assertThatThrownBy(() -> LockConfig.builder().replicaAckTimeout(Duration.ofSeconds(61)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replicaAckTimeout")
                .hasMessageContaining("at most");
        assertThat(LockConfig.builder().ttl(Duration.ofMinutes(5)).replicaAckTimeout(Duration.ofSeconds(60)).build()
                .replicaAckTimeout()).isEqualTo(Duration.ofSeconds(60));
        // A confirmation as long as the lease would use it up before the holder could work under it.
        assertThatThrownBy(() -> LockConfig.builder().ttl(Duration.ofSeconds(3))
                .replicaAckTimeout(Duration.ofMillis(1_001)).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replicaAckTimeout (PT1.001S)").hasMessageContaining("third of the ttl");
        assertThat(LockConfig.builder().ttl(Duration.ofSeconds(3)).replicaAckTimeout(Duration.ofSeconds(1)).build()
                .replicaAckTimeout()).isEqualTo(Duration.ofSeconds(1));
        // Nothing waits without replica acks: the timeout is not checked against the ttl.
        assertThat(LockConfig.builder().ttl(Duration.ofSeconds(1)).replicaAcks(ReplicaAcks.none())
                .replicaAckTimeout(Duration.ofSeconds(2)).build().replicaAcks()).isEqualTo(ReplicaAcks.none());
    }

    @Test
    void derivedReplicaAckTimeoutIsOneSecondOrAThirdOfAShortTtl() {
        assertThat(LockConfig.builder().ttl(Duration.ofMillis(300)).build().replicaAckTimeout())
                .isEqualTo(Duration.ofMillis(100));
        LockConfig derived = LockConfig.builder().ttl(Duration.ofSeconds(1)).build();
        assertThat(derived.replicaAckTimeout()).isEqualTo(Duration.ofMillis(333));
        assertThat(derived.toBuilder().ttl(Duration.ofSeconds(10)).build().replicaAckTimeout())
                .isEqualTo(Duration.ofSeconds(1));
        LockConfig explicit = LockConfig.builder().replicaAckTimeout(Duration.ofMillis(200)).build();
        assertThat(explicit.toBuilder().ttl(Duration.ofSeconds(10)).build().replicaAckTimeout())
                .isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void toStringShowsTheReplicaAcksAndTheirTimeout() {
        assertThat(LockConfig.defaults().toString()).contains("replicaAcks=AUTO within PT1S");
        assertThat(LockConfig.builder().replicaAcks(ReplicaAcks.of(2)).replicaAckTimeout(Duration.ofMillis(200))
                .build().toString()).contains("replicaAcks=2 within PT0.2S");
        assertThat(LockConfig.builder().replicaAcks(ReplicaAcks.none()).build().toString())
                .contains("replicaAcks=NONE]");
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
