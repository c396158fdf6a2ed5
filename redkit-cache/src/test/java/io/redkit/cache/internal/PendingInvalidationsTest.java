package io.redkit.cache.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redkit.RedkitClock;

/**
 * What the retry thread settles, against a retry whose answer the test holds back (no Redis here: only the
 * bookkeeping between a retry in flight and the invalidations that arrive meanwhile).
 */
class PendingInvalidationsTest {

    /** A retry that waits, on each call, until the test lets it answer. */
    private static final class HeldRetry implements PendingInvalidations.Retry {
        final CountDownLatch sending = new CountDownLatch(1);
        final CountDownLatch answer = new CountDownLatch(1);
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public boolean unlink(List<String> entryKeys) {
            if (calls.incrementAndGet() == 1) {
                sending.countDown();
                try {
                    answer.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return true;
        }

        @Override
        public boolean unlinkAll() {
            return true;
        }
    }

    @Test
    void anInvalidationThatArrivesWhileTheLastOneIsConfirmedStaysPendingUntilItIsConfirmedToo() throws Exception {
        HeldRetry retry = new HeldRetry();
        try (PendingInvalidations pending = new PendingInvalidations("t", retry, RedkitClock.SYSTEM,
                new CacheMetrics(new SimpleMeterRegistry(), "c", "t"))) {
            pending.awaitConfirmation(List.of("k"));
            assertThat(retry.sending.await(10, TimeUnit.SECONDS)).isTrue(); // the first UNLINK of k is in flight

            pending.awaitConfirmation(List.of("k")); // a second commit invalidates k again
            retry.answer.countDown(); // the first one is confirmed

            // Its confirmation does not cover the second: k stays pending until that one is sent and confirmed.
            await().atMost(Duration.ofSeconds(10)).until(() -> retry.calls.get() >= 2);
            await().atMost(Duration.ofSeconds(10)).until(() -> !pending.bypass("k"));
            assertThat(retry.calls.get()).isEqualTo(2);
        }
    }
}
