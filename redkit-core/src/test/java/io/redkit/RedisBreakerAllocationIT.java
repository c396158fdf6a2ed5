package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/**
 * What the breaker costs a call that Redis answered (issue 21: every cache read, limiter decision and session load
 * records one). Recording a success updates the window in place; Resilience4j's lock-free window copied its whole
 * aggregation, a list node and a snapshot for every call (about 300 bytes, 10% of a session load's allocation).
 */
class RedisBreakerAllocationIT {

    private static final int CALLS = 50_000;

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void aSuccessIsRecordedWithoutCopyingTheWindow() {
        try (Redkit redkit = Redkit.connect(redis.url());
                RedisBreaker breaker = RedisBreaker.create(redkit, "allocation", 100, Duration.ofMillis(200), 3)) {
            allocatedPerSuccess(breaker); // warm

            long perSuccess = allocatedPerSuccess(breaker);

            // The snapshot Resilience4j returns from a record (an object of four ints and a long): 40 bytes.
            assertThat(perSuccess).as("bytes allocated per recorded success").isLessThanOrEqualTo(48);
            assertThat(breaker.state()).isEqualTo(RedisBreaker.State.CLOSED);
        }
    }

    private long allocatedPerSuccess(RedisBreaker breaker) {
        long threadId = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(threadId);
        int permitted = 0;
        for (int i = 0; i < CALLS; i++) {
            if (breaker.tryAcquire()) {
                permitted++;
                breaker.succeeded(1_000);
            }
        }
        long after = threads.getThreadAllocatedBytes(threadId);
        assertThat(permitted).isEqualTo(CALLS);
        return (after - before) / CALLS;
    }
}
