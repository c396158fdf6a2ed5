package io.redkit.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

/** A decision is a consistent value, and renders the HTTP headers a client reads. */
class DecisionTest {

    private static final Limit PER_MINUTE = Limit.fixedWindow(100, Duration.ofMinutes(1));

    @Test
    void aRefusalRendersRetryAfterAndTheRateLimitFieldsInWholeSecondsRoundedUp() {
        Decision refused = new Decision(false, 0, Duration.ofMillis(1500), Duration.ofMillis(1500), PER_MINUTE,
                Instant.now(), Decision.Basis.COUNTED);
        assertThat(RateLimitHeaders.of(refused)).containsExactly(
                entry("Retry-After", "2"), entry("RateLimit-Limit", "100"), entry("RateLimit-Remaining", "0"),
                entry("RateLimit-Reset", "2"), entry("RateLimit-Policy", "100;w=60"));
    }

    @Test
    void anAllowedDecisionHasNoRetryAfterAndAGcraBurstIsNamed() {
        Decision allowed = new Decision(true, 19, Duration.ZERO, Duration.ofMillis(10), Limit.gcra(100,
                Duration.ofSeconds(1), 20), Instant.now(), Decision.Basis.COUNTED);
        assertThat(RateLimitHeaders.of(allowed)).doesNotContainKey("Retry-After")
                .containsEntry("RateLimit-Limit", "20").containsEntry("RateLimit-Remaining", "19")
                .containsEntry("RateLimit-Reset", "0").containsEntry("RateLimit-Policy", "100;w=1;burst=20");
    }

    @Test
    void resetIsWhenTheNextRequestPassesNotWhenTheLimitIsFullAgain() {
        // GCRA 20 per 10 s: one permit every 500 ms. The last permit just taken: full again in 10 s, the next
        // request passes in 500 ms. Refused: Reset says what Retry-After says.
        Limit gcra = Limit.gcra(20, Duration.ofSeconds(10));
        Decision last = new Decision(true, 0, Duration.ZERO, Duration.ofSeconds(10), gcra, Instant.now(),
                Decision.Basis.COUNTED);
        Decision refused = new Decision(false, 0, Duration.ofMillis(400), Duration.ofMillis(9900), gcra,
                Instant.now(), Decision.Basis.COUNTED);
        Decision window = new Decision(true, 0, Duration.ZERO, Duration.ofMillis(4200),
                Limit.fixedWindow(20, Duration.ofSeconds(10)), Instant.now(), Decision.Basis.COUNTED);

        assertThat(RateLimitHeaders.nextPermitAfter(last)).isEqualTo(Duration.ofMillis(500));
        assertThat(RateLimitHeaders.of(last)).containsEntry("RateLimit-Reset", "1");
        assertThat(RateLimitHeaders.of(refused)).containsEntry("Retry-After", "1").containsEntry("RateLimit-Reset", "1");
        assertThat(RateLimitHeaders.of(window)).containsEntry("RateLimit-Reset", "5");
    }

    @Test
    void aSubSecondRefusalStillSaysWaitOneSecondAndASubSecondPolicyIsLeftOut() {
        Decision refused = new Decision(false, 0, Duration.ofMillis(3), Duration.ofMillis(3),
                Limit.gcra(10, Duration.ofMillis(100)), Instant.now(), Decision.Basis.COUNTED);
        assertThat(RateLimitHeaders.of(refused)).containsEntry("Retry-After", "1").doesNotContainKey("RateLimit-Policy");
    }

    @Test
    void aDecisionOfThePolicyHasNoHeadersAsNothingWasCounted() {
        Decision open = new Decision(true, 0, Duration.ZERO, Duration.ZERO, PER_MINUTE, Instant.now(),
                Decision.Basis.FAIL_OPEN);
        assertThat(open.counted()).isFalse();
        assertThat(RateLimitHeaders.of(open)).isEmpty();
    }

    @Test
    void contradictionsAreRefused() {
        assertThatThrownBy(() -> new Decision(true, 0, Duration.ZERO, Duration.ZERO, PER_MINUTE, Instant.now(),
                Decision.Basis.FAIL_CLOSED)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("basis");
        assertThatThrownBy(() -> new Decision(false, 0, Duration.ZERO, Duration.ZERO, PER_MINUTE, Instant.now(),
                Decision.Basis.FAIL_OPEN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Decision(false, -1, Duration.ZERO, Duration.ZERO, PER_MINUTE, Instant.now(),
                Decision.Basis.COUNTED)).hasMessageContaining("negative");
    }

    private static java.util.Map.Entry<String, String> entry(String k, String v) {
        return java.util.Map.entry(k, v);
    }
}
