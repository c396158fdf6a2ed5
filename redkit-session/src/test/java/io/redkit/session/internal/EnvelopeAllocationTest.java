package io.redkit.session.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.redkit.session.SessionId;

/**
 * What reading a stored session allocates (issue 21: a load allocates no more than 1.5× what raw Lettuce does for
 * the same commands). Opening an envelope reads its header in place: the opened record, its strings and the
 * payload, and nothing per field name, per number or per check.
 */
class EnvelopeAllocationTest {

    private static final int OPENS = 20_000;

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void opensAnEnvelopeWithoutCopyingItsHeader() {
        SessionId id = SessionId.generate();
        byte[] stored = Envelope.write(id, "user-1234", 1_767_182_400_000L, 1_767_225_600_000L, 3, 1,
                "{\"visits\":12}".getBytes(StandardCharsets.UTF_8));
        id.digest();
        opened(id, stored); // warm

        long perOpen = opened(id, stored);

        // The opened record, the header's two strings, the payload and the reader: 256 bytes; the header read
        // through a String, boxes and per-name strings took 1,480.
        assertThat(perOpen).as("bytes allocated per open").isLessThanOrEqualTo(480);
    }

    private long opened(SessionId id, byte[] stored) {
        long threadId = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(threadId);
        long valid = 0;
        for (int i = 0; i < OPENS; i++) {
            valid += Envelope.open(id, stored, 1).status() == Envelope.Status.VALID ? 1 : 0;
        }
        long after = threads.getThreadAllocatedBytes(threadId);
        assertThat(valid).isEqualTo(OPENS);
        return (after - before) / OPENS;
    }
}
