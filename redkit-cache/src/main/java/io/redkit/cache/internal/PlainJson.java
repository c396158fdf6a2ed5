package io.redkit.cache.internal;

import java.nio.charset.StandardCharsets;

/**
 * The bytes of a {@code PLAIN_JSON} entry: exactly the codec's JSON, no header, so that any JSON library reads and
 * writes them. "Not found" is the JSON {@code null}: every JSON library maps it to its own nothing ({@code null},
 * {@code nil}, {@code None}) without knowing redkit, and a value whose JSON is {@code null} is never stored, so a
 * real value cannot be mistaken for the marker.
 */
final class PlainJson {

    /** The "not found" marker as redkit writes it. */
    static final byte[] NOT_FOUND = "null".getBytes(StandardCharsets.US_ASCII);

    private PlainJson() {
    }

    /** Whether {@code bytes} are the JSON {@code null}, with any JSON whitespace around it (RFC 8259 §2). */
    static boolean isNull(byte[] bytes) {
        int start = 0;
        int end = bytes.length;
        while (start < end && whitespace(bytes[start])) {
            start++;
        }
        while (end > start && whitespace(bytes[end - 1])) {
            end--;
        }
        if (end - start != NOT_FOUND.length) {
            return false;
        }
        for (int i = 0; i < NOT_FOUND.length; i++) {
            if (bytes[start + i] != NOT_FOUND[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean whitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }
}
