package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

/**
 * What building a key allocates (issue 21: every hot path builds one per call). A key of one part that needs no
 * escaping is a concatenation, sized exactly: the string alone. A key of several costs its builder's array, sized
 * once, and the string's own copy: nothing for a builder that outgrew a guess.
 */
class KeySchemaAllocationTest {

    private static final int KEYS = 20_000;
    // A session's key part: the 43 characters of a base64url SHA-256.
    private static final String PART = "q3A1hM9yXz0b7cLkWn2pRt5vUe8sDf4gHj6aZx1CoE0";

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void aKeyOfOnePlainPartIsItsStringAndNothingElse() {
        KeySchema schema = KeySchema.of("session");
        String key = schema.key(PART);
        List<String> parts = List.of(PART);
        for (int round = 0; round < 2; round++) { // the first warms
            long varargs = allocatedPerKey(key, () -> schema.key(PART));
            long list = allocatedPerKey(key, () -> schema.key(parts));
            long name = allocatedPerKey(key, () -> schema.nameKey(PART));
            if (round == 1) {
                // The String (an object of at most 24 bytes and its array, 16-byte header) and, for key(String...),
                // the varargs array of one (24). A builder costs a second array of the key's length and its object.
                long string = align(key.length() + 16) + 24;
                assertThat(varargs).as("key(String...) of %d characters", key.length()).isLessThanOrEqualTo(string + 24);
                assertThat(list).as("key(List)").isLessThanOrEqualTo(string);
                assertThat(name).as("nameKey").isLessThanOrEqualTo(string);
            }
        }
    }

    @Test
    void aKeyOfSeveralPlainPartsIsBuiltInOneArray() {
        KeySchema schema = KeySchema.of("session");
        String key = schema.key(PART, PART);
        allocatedPerKey(key, () -> schema.key(PART, PART)); // warm

        long perKey = allocatedPerKey(key, () -> schema.key(PART, PART));

        // The varargs array, the builder (an object and an array of the key's length), the String (an object and
        // its copy): with 16-byte array headers and 8-byte alignment, 2 arrays of key.length() + 16 and three
        // objects of at most 24. Sized "namespace + 16", the builder grew once for this key: another array.
        long arrays = 2 * align(key.length() + 16);
        assertThat(perKey).as("bytes allocated per key of %d characters", key.length())
                .isLessThanOrEqualTo(arrays + 3 * 24);
    }

    private long allocatedPerKey(String expected, Supplier<String> build) {
        long threadId = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(threadId);
        long length = 0;
        for (int i = 0; i < KEYS; i++) {
            length += build.get().length();
        }
        long after = threads.getThreadAllocatedBytes(threadId);
        assertThat(build.get()).isEqualTo(expected);
        assertThat(length).isEqualTo((long) KEYS * expected.length());
        return (after - before) / KEYS;
    }

    private static long align(long bytes) {
        return (bytes + 7) / 8 * 8;
    }
}
