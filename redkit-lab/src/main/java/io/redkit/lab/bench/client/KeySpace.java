package io.redkit.lab.bench.client;

import java.util.Arrays;

import io.redkit.lab.bench.Caller;

/**
 * The keys and the value every client contender and redis-benchmark use: {@code key:000000000000} to
 * {@code key:000000000999}, which is what {@code redis-benchmark -r 1000} makes of {@code key:__rand_int__}, and a
 * 100-byte value ({@code -d 100}).
 */
final class KeySpace {

    static final int KEYS = 1000;
    static final int VALUE_SIZE = 100;

    private static final String[] NAMES = new String[KEYS];

    static {
        for (int i = 0; i < KEYS; i++) {
            NAMES[i] = String.format("key:%012d", i);
        }
    }

    private KeySpace() {
    }

    /** A uniformly chosen key. */
    static String any(Caller caller) {
        return NAMES[caller.nextInt(KEYS)];
    }

    static String key(int i) {
        return NAMES[i];
    }

    /** A fresh copy of the value (callers may not share a mutable array with a library that might keep it). */
    static byte[] value() {
        byte[] v = new byte[VALUE_SIZE];
        Arrays.fill(v, (byte) 'x');
        return v;
    }
}
