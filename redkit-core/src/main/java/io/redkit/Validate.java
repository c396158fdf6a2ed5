package io.redkit;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The checks every configuration builder of redkit shares, so that a bad value is refused the same way everywhere:
 * at once, with an {@link IllegalArgumentException} (or {@link NullPointerException} for a missing value) naming
 * the setting and the bad value.
 */
public final class Validate {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    private Validate() {
    }

    /**
     * A name that becomes part of keys, channels or meter tags: 1 to {@code maxLength} of {@code [A-Za-z0-9_.-]},
     * so that it never needs escaping.
     */
    public static String name(String field, String value, int maxLength) {
        if (value == null || value.isEmpty() || value.length() > maxLength || !NAME.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " must be 1-" + maxLength + " of [A-Za-z0-9_.-], was '"
                    + value + "'");
        }
        return value;
    }

    /**
     * Refuses anything but {@link ReadFrom#MASTER} for a feature that must read what was just written: {@code
     * feature} names it ("locks"), {@code risk} says what a lagging replica would do to it.
     */
    public static ReadFrom masterOnly(String feature, ReadFrom value, String risk) {
        if (Objects.requireNonNull(value, "readFrom") != ReadFrom.MASTER) {
            throw new IllegalArgumentException("readFrom " + value + " refused: " + feature + " read and write the"
                    + " master only; " + risk);
        }
        return value;
    }

    /** A duration above zero and at most {@code max}. */
    public static Duration positive(String field, Duration value, Duration max) {
        Objects.requireNonNull(value, field);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
        return atMost(field, value, max);
    }

    /** A duration of zero or more, at most {@code max}. */
    public static Duration nonNegative(String field, Duration value, Duration max) {
        Objects.requireNonNull(value, field);
        if (value.isNegative()) {
            throw new IllegalArgumentException(field + " must not be negative, was " + value);
        }
        return atMost(field, value, max);
    }

    /** A duration from {@code min} to {@code max}, both included. */
    public static Duration within(String field, Duration value, Duration min, Duration max) {
        Objects.requireNonNull(value, field);
        if (value.compareTo(min) < 0) {
            throw new IllegalArgumentException(field + " must be at least " + describe(min) + ", was " + value);
        }
        return atMost(field, value, max);
    }

    private static Duration atMost(String field, Duration value, Duration max) {
        if (value.compareTo(max) > 0) {
            throw new IllegalArgumentException(field + " must be at most " + describe(max) + ", was " + value);
        }
        return value;
    }

    /** {@code 100 ms}, {@code 24 h}: how limits read in messages. */
    static String describe(Duration d) {
        if (d.toHours() >= 1 && d.toMinutesPart() == 0 && d.toSecondsPart() == 0 && d.toNanosPart() == 0) {
            return d.toHours() + " h";
        }
        if (d.toNanosPart() % 1_000_000 == 0) {
            return d.toMillis() + " ms";
        }
        return d.toString();
    }
}
