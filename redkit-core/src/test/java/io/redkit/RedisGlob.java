package io.redkit;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.lettuce.core.codec.StringCodec;

/**
 * What Redis sees of a key or pattern, for tests: the bytes Lettuce's UTF-8 codec sends, Redis's glob
 * ({@code stringmatchlen} in {@code util.c}, as SCAN MATCH runs it) and Redis's hash tag ({@code keyHashSlot}).
 */
final class RedisGlob {

    private RedisGlob() {
    }

    /** The bytes Lettuce writes for {@code key}: redkit's codec is {@code StringCodec.UTF8}. */
    static byte[] wire(String key) {
        ByteBuffer buffer = StringCodec.UTF8.encodeKey(key);
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** Whether SCAN MATCH {@code pattern} selects {@code key}, both as bytes. */
    static boolean matches(byte[] pattern, byte[] key) {
        return match(pattern, 0, key, 0);
    }

    /** The bytes Redis hashes for the slot: between the first '{' and the next '}', if not empty; else all. */
    static byte[] hashTag(byte[] key) {
        int open = indexOf(key, (byte) '{', 0);
        int close = open < 0 ? -1 : indexOf(key, (byte) '}', open + 1);
        return close <= open + 1 ? key : Arrays.copyOfRange(key, open + 1, close);
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static boolean match(byte[] p, int pi, byte[] s, int si) {
        while (pi < p.length) {
            switch (p[pi]) {
                case '*' -> {
                    while (pi + 1 < p.length && p[pi + 1] == '*') {
                        pi++;
                    }
                    for (int k = si; k <= s.length; k++) {
                        if (match(p, pi + 1, s, k)) {
                            return true;
                        }
                    }
                    return false;
                }
                case '?' -> {
                    if (si == s.length) {
                        return false;
                    }
                    si++;
                }
                case '[' -> {
                    if (si == s.length) {
                        return false;
                    }
                    pi = matchClass(p, pi + 1, s[si]);
                    if (pi < 0) {
                        return false;
                    }
                    si++;
                }
                default -> {
                    if (p[pi] == '\\' && pi + 1 < p.length) {
                        pi++;
                    }
                    if (si == s.length || p[pi] != s[si]) {
                        return false;
                    }
                    si++;
                }
            }
            pi++;
        }
        return si == s.length;
    }

    /** Matches {@code c} against the class starting at {@code pi}; the index of its ']' or -1 when it misses. */
    private static int matchClass(byte[] p, int pi, byte c) {
        boolean not = pi < p.length && p[pi] == '^';
        if (not) {
            pi++;
        }
        boolean hit = false;
        for (; pi < p.length && p[pi] != ']'; pi++) {
            if (p[pi] == '\\' && pi + 1 < p.length) {
                hit |= p[++pi] == c;
            } else if (pi + 2 < p.length && p[pi + 1] == '-') {
                int from = Math.min(p[pi] & 0xFF, p[pi + 2] & 0xFF);
                int to = Math.max(p[pi] & 0xFF, p[pi + 2] & 0xFF);
                hit |= (c & 0xFF) >= from && (c & 0xFF) <= to;
                pi += 2;
            } else {
                hit |= p[pi] == c;
            }
        }
        if (pi == p.length) {
            pi--;
        }
        return hit != not ? pi : -1;
    }
}
