package io.redkit.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Checks and converts the arguments of the seam's commands before they are sent, so that a bad key, TTL or
 * member fails here, naming itself, rather than on the server.
 */
final class CommandArguments {

    private CommandArguments() {
    }

    static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static byte[][] utf8(String[] values) {
        byte[][] bytes = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = values[i].getBytes(StandardCharsets.UTF_8);
        }
        return bytes;
    }

    static String[] nonEmpty(String what, String[] values) {
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException("at least one " + what + " is required");
        }
        for (String v : values) {
            Objects.requireNonNull(v, what);
        }
        return values.clone();
    }

    static long ttlMillis(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, was " + ttl);
        }
        return Math.max(1, ttl.toMillis());
    }

    static void requireKey(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key must not be null or empty");
        }
    }

    static String[] nonEmptyKeyArray(String[] keys) {
        if (keys == null || keys.length == 0) {
            throw new IllegalArgumentException("at least one key is required");
        }
        return keyArray(List.of(keys));
    }

    static String[] keyArray(List<String> keys) {
        Objects.requireNonNull(keys, "keys");
        String[] array = keys.toArray(new String[0]);
        for (String key : array) {
            requireKey(key);
        }
        return array;
    }
}
