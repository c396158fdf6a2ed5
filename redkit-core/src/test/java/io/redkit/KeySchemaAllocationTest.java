package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

/**
 * What building a key allocates (issue 21: every hot path builds one per call). A key whose parts need no escaping
 * costs its builder's array, sized once, and the string's own copy: nothing for a builder that outgrew a guess.
 */
class KeySchemaAllocationTest {

    private static final int KEYS = 20_000;
    // A session's key part: the 43 characters of a base64url SHA-256.
    private static final String PART = "q3A1hM9yXz0b7cLkWn2pRt5vUe8sDf4gHj6aZx1CoE0";

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void aKeyOfPlainPartsIsBuiltInOneArray() {
        KeySchema schema = KeySchema.of("session");
        String key = schema.key(PART);
        allocatedPerKey(schema); // warm

        long perKey = allocatedPerKey(schema);

        // The varargs array, the builder (an object and an array of the key's length), the String (an object and
        // its copy): with 16-byte array headers and 8-byte alignment, 2 arrays of key.length() + 16 and three
        // objects of at most 24. Sized "namespace + 16", the builder grew once for this key: another array.
        long arrays = 2 * align(key.length() + 16);
        assertThat(perKey).as("bytes allocated per key of %d characters", key.length())
                .isLessThanOrEqualTo(arrays + 3 * 24);
    }

    private long allocatedPerKey(KeySchema schema) {
        long threadId = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(threadId);
        long length = 0;
        for (int i = 0; i < KEYS; i++) {
            length += schema.key(PART).length();
        }
        long after = threads.getThreadAllocatedBytes(threadId);
        assertThat(length).isEqualTo((long) KEYS * ("session:{".length() + PART.length() + 1));
        return (after - before) / KEYS;
    }

    private static long align(long bytes) {
        return (bytes + 7) / 8 * 8;
    }
}
