package io.redkit.lock.internal;

import java.time.Duration;
import java.util.Objects;

/** The validations the lock configurations share; each names the field and the bad value. Not API. */
public final class Checks {

    private Checks() {
    }

    /** A key namespace: 1-64 of {@code [A-Za-z0-9_.-]}, so that it never needs escaping. */
    public static String namespace(String value) {
        if (value == null || !value.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new IllegalArgumentException("namespace must be 1-64 of [A-Za-z0-9_.-], was '" + value + "'");
        }
        return value;
    }

    /** A duration of at least {@code min}. */
    public static Duration atLeast(String field, Duration value, Duration min) {
        Objects.requireNonNull(value, field);
        if (value.compareTo(min) < 0) {
            throw new IllegalArgumentException(field + " must be at least " + describe(min) + ", was " + value);
        }
        return value;
    }

    /** A duration above zero. */
    public static Duration positive(String field, Duration value) {
        Objects.requireNonNull(value, field);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
        return value;
    }

    /** A duration of zero or more. */
    public static Duration nonNegative(String field, Duration value) {
        Objects.requireNonNull(value, field);
        if (value.isNegative()) {
            throw new IllegalArgumentException(field + " must not be negative, was " + value);
        }
        return value;
    }

    private static String describe(Duration d) {
        return d.toHours() >= 1 && d.toMinutesPart() == 0 && d.toSecondsPart() == 0 && d.toNanosPart() == 0
                ? d.toHours() + " h" : d.toMillis() + " ms";
    }
}
