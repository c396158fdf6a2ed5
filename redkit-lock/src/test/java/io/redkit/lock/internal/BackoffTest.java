package io.redkit.lock.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.RepeatedTest;

/** The waiting backoff stays between its bounds, grows, and is jittered so that waiters do not move in step. */
class BackoffTest {

    private static final long MIN = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long MAX = TimeUnit.MILLISECONDS.toNanos(250);

    @RepeatedTest(20)
    void pausesStayWithinTheBoundsAndReachTheUpperHalfOfTheMaximum() {
        Backoff backoff = new Backoff(MIN, MAX);
        long first = backoff.nextNanos();
        assertThat(first).isEqualTo(MIN);
        long last = 0;
        for (int i = 0; i < 20; i++) {
            last = backoff.nextNanos();
            assertThat(last).isBetween(MIN, MAX);
        }
        assertThat(last).isGreaterThanOrEqualTo(MAX / 2);
    }

    @RepeatedTest(5)
    void twoWaitersDoNotPauseInStep() {
        Backoff a = new Backoff(MIN, MAX);
        Backoff b = new Backoff(MIN, MAX);
        int same = 0;
        for (int i = 0; i < 20; i++) {
            if (a.nextNanos() == b.nextNanos()) {
                same++;
            }
        }
        assertThat(same).isLessThan(10);
    }
}
