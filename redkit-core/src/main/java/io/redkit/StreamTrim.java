package io.redkit;

import java.util.Objects;

/**
 * How XADD (or XTRIM) bounds a stream. Approximate trimming ({@code ~}) lets Redis drop whole internal nodes, which
 * is much cheaper than trimming to the exact entry; the stream may then hold a little more than asked.
 *
 * @param maxLength keep about this many newest entries (0: no length bound)
 * @param minId drop entries with an id below this one ({@code null}: no age bound)
 */
public record StreamTrim(long maxLength, String minId) {

    /** No trimming. */
    public static final StreamTrim NONE = new StreamTrim(0, null);

    /** Validates the bound. */
    public StreamTrim {
        if (maxLength < 0) {
            throw new IllegalArgumentException("maxLength must not be negative, was " + maxLength);
        }
        if (maxLength > 0 && minId != null) {
            throw new IllegalArgumentException("trim by length or by id, not both");
        }
    }

    /** {@code MAXLEN ~ n}: keep about the newest {@code n} entries. */
    public static StreamTrim maxLength(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("maxLength must be at least 1, was " + n);
        }
        return new StreamTrim(n, null);
    }

    /** {@code MINID ~ id}: drop entries older than {@code id} (e.g. {@code <epoch ms>-0} for an age bound). */
    public static StreamTrim minId(String id) {
        return new StreamTrim(0, Objects.requireNonNull(id, "minId"));
    }

    /** Whether this trims at all. */
    public boolean trims() {
        return maxLength > 0 || minId != null;
    }
}
