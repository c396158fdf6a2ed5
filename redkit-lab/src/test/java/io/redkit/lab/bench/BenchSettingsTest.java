package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class BenchSettingsTest {

    @Test
    void defaultsAreOneSixteenSixtyFourCallersFiveRoundsOfOneSecond() {
        BenchSettings s = BenchSettings.of(null, 5, null, null);
        assertThat(s.callers()).containsExactly(1, 16, 64);
        assertThat(s.round()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.warmup()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void shortPresetIsForSmokeTests() {
        BenchSettings s = BenchSettings.of(List.of(4), 1, "short", null);
        assertThat(s.round()).isEqualTo(Duration.ofMillis(300));
        assertThat(s.warmup()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void explicitDurationsParse() {
        BenchSettings s = BenchSettings.of(null, 3, "2s", "500ms");
        assertThat(s.round()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.warmup()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void badValuesAreNamed() {
        assertThatThrownBy(() -> BenchSettings.of(null, 3, "fast", null)).hasMessageContaining("--duration")
                .hasMessageContaining("fast");
        assertThatThrownBy(() -> BenchSettings.of(List.of(0), 3, null, null)).hasMessageContaining("--callers");
        assertThatThrownBy(() -> BenchSettings.of(null, 0, null, null)).hasMessageContaining("--rounds");
    }
}
