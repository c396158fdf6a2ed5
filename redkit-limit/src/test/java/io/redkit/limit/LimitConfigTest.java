package io.redkit.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.redkit.ReadFrom;

/** Limits and configurations refuse a bad value where it is written, naming it; no server is involved. */
class LimitConfigTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    @Test
    void zeroOrNegativePermitsAreRefusedByName() {
        assertThatThrownBy(() -> Limit.fixedWindow(0, SECOND)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("permits must be at least 1, was 0");
        assertThatThrownBy(() -> Limit.slidingLog(-5, SECOND)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("permits must be at least 1, was -5");
        assertThatThrownBy(() -> Limit.slidingCounter(0, SECOND)).hasMessageContaining("permits");
        assertThatThrownBy(() -> Limit.gcra(0, SECOND)).hasMessageContaining("permits must be at least 1");
        assertThatThrownBy(() -> Limit.gcra(10, SECOND, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("burst must be at least 1, was 0");
    }

    @Test
    void zeroNegativeOrMissingPeriodIsRefusedByName() {
        assertThatThrownBy(() -> Limit.fixedWindow(10, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("period must be positive, was PT0S");
        assertThatThrownBy(() -> Limit.gcra(10, Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period must be positive");
        assertThatThrownBy(() -> Limit.slidingLog(10, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("period");
        assertThatThrownBy(() -> Limit.slidingCounter(10, Duration.ofDays(400)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("period must be at most");
        assertThatThrownBy(() -> Limit.fixedWindow(10, Duration.ofNanos(1_500_000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period must be a whole number of milliseconds");
    }

    @Test
    void limitsWhoseArithmeticWouldNotStayExactAreRefused() {
        assertThatThrownBy(() -> Limit.slidingLog(10_001, SECOND)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("permits must be at most 10000, was 10001");
        assertThatThrownBy(() -> Limit.slidingCounter(1L << 30, Duration.ofDays(30)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2^52");
        // 7 per second: an emission interval of 1,000,000/7 µs, kept as a fraction, so a huge burst overflows.
        assertThatThrownBy(() -> Limit.gcra(7, SECOND, 1L << 40)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2^52");
        assertThat(Limit.gcra(1_000_000, Duration.ofDays(1)).capacity()).isEqualTo(1_000_000);
        assertThat(Limit.slidingCounter(1_000_000, Duration.ofDays(1)).permits()).isEqualTo(1_000_000);
    }

    @Test
    void capacityIsTheBurstForGcraAndThePermitsOtherwise() {
        assertThat(Limit.gcra(100, SECOND, 20).capacity()).isEqualTo(20);
        assertThat(Limit.gcra(100, SECOND).capacity()).isEqualTo(100);
        assertThat(Limit.fixedWindow(1000, Duration.ofHours(1)).capacity()).isEqualTo(1000);
        assertThat(Limit.gcra(100, SECOND, 20)).hasToString("gcra 100/PT1S burst 20")
                .isEqualTo(Limit.gcra(100, SECOND, 20)).isNotEqualTo(Limit.gcra(100, SECOND));
    }

    @Test
    void aLimiterNeedsALimitAndAPolicyChosenInCode() {
        assertThatThrownBy(() -> LimiterConfig.builder("api").failOpen().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("limiter 'api' needs at least one limit");
        assertThatThrownBy(() -> LimiterConfig.builder("api").limit(Limit.gcra(10, SECOND)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("failOpen()")
                .hasMessageContaining("failClosed()").hasMessageContaining("no default");
        assertThat(LimiterConfig.of("api", UnavailablePolicy.FAIL_CLOSED, Limit.gcra(10, SECOND)).whenUnavailable())
                .isEqualTo(UnavailablePolicy.FAIL_CLOSED);
    }

    @Test
    void aLimiterNameBecomesAKeyPartAndAMeterTagSoItIsPlain() {
        assertThatThrownBy(() -> LimiterConfig.builder("api:v1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limiter name").hasMessageContaining("api:v1");
        assertThatThrownBy(() -> LimiterConfig.builder("")).hasMessageContaining("limiter name");
        assertThatThrownBy(() -> LimiterConfig.builder("x".repeat(65))).hasMessageContaining("1-64");
    }

    @Test
    void limitsOfOneLimiterShareAnAlgorithmAndDifferInPeriod() {
        LimiterConfig.Builder b = LimiterConfig.builder("api").limit(Limit.gcra(10, SECOND));
        assertThatThrownBy(() -> b.limit(Limit.fixedWindow(1000, Duration.ofHours(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share one algorithm")
                .hasMessageContaining("gcra 10/PT1S").hasMessageContaining("fixed 1000/PT1H");
        assertThatThrownBy(() -> b.limit(Limit.gcra(20, SECOND))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("distinct periods");
        LimiterConfig both = b.limit(Limit.gcra(1000, Duration.ofHours(1))).failOpen().build();
        assertThat(both.limits()).hasSize(2);
        assertThat(both.capacity()).isEqualTo(10);
        assertThat(both.algorithm()).isEqualTo(Algorithm.GCRA);
    }

    @Test
    void aLimiterChecksAtMostEightLimits() {
        LimiterConfig.Builder b = LimiterConfig.builder("many");
        for (int i = 1; i <= LimiterConfig.MAX_LIMITS; i++) {
            b.limit(Limit.fixedWindow(10, Duration.ofSeconds(i)));
        }
        assertThatThrownBy(() -> b.limit(Limit.fixedWindow(10, Duration.ofSeconds(99))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 8 limits");
    }

    @Test
    void limitsConfigDefaultsAreTheDocumentedOnes() {
        LimitsConfig config = LimitsConfig.defaults();
        assertThat(config.namespace()).isEqualTo("limit");
        assertThat(config.timeout()).isEmpty();
        assertThat(config.breakerWindow()).isEqualTo(10);
        assertThat(config.breakerProbeInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(config.breakerProbesToClose()).isEqualTo(3);
    }

    @Test
    void limitsConfigRefusesBadValuesByName() {
        assertThatThrownBy(() -> LimitsConfig.builder().timeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> LimitsConfig.builder().timeout(Duration.ofMinutes(1)))
                .hasMessageContaining("timeout must be at most");
        assertThatThrownBy(() -> LimitsConfig.builder().breakerWindow(1)).hasMessage("breakerWindow must be 2-1000, was 1");
        assertThatThrownBy(() -> LimitsConfig.builder().breakerProbes(Duration.ofMillis(1), 3))
                .hasMessageContaining("breaker probe interval");
        assertThatThrownBy(() -> LimitsConfig.builder().breakerProbes(Duration.ofMillis(200), 0))
                .hasMessageContaining("probesToClose");
        assertThatThrownBy(() -> LimitsConfig.builder().namespace("a b")).hasMessageContaining("namespace");
    }

    @Test
    void limitsReadTheMasterOnly() {
        assertThatThrownBy(() -> LimitsConfig.builder().readFrom(ReadFrom.REPLICA_PREFERRED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("master only");
        assertThat(LimitsConfig.builder().readFrom(ReadFrom.MASTER).build().namespace()).isEqualTo("limit");
    }
}
