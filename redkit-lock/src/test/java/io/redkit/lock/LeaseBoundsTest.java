package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class LeaseBoundsTest {

    @Test
    void atLeastLongerThanAtMostIsRefusedNamingBoth() {
        assertThatThrownBy(() -> LeaseBounds.of(Duration.ofSeconds(1), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("atLeast (PT2S)")
                .hasMessageContaining("atMost (PT1S)");
    }

    @Test
    void anAtMostShorterThanALeaseCanLiveIsRefused() {
        assertThatThrownBy(() -> LeaseBounds.atMost(Duration.ofMillis(50)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("atMost");
    }

    @Test
    void aNegativeAtLeastIsRefused() {
        assertThatThrownBy(() -> LeaseBounds.of(Duration.ofSeconds(1), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("atLeast");
    }

    @Test
    void driftIsTheDefaultOfItsOwnBound() {
        assertThat(LeaseBounds.atMost(Duration.ofSeconds(10)).clockDrift()).isEqualTo(Duration.ofMillis(102));
    }
}
