package io.redkit.session.internal;

/** Argument checks the store and the deny-list share; a bad value is refused before Redis is asked. */
final class Checks {

    private Checks() {
    }

    /** A non-empty string of at most {@code max} characters that becomes part of a key; the message never echoes it. */
    static String keyPart(String field, String value, int max) {
        if (value == null || value.isEmpty() || value.length() > max) {
            throw new IllegalArgumentException(field + " must be 1-" + max + " characters, was "
                    + (value == null ? "null" : value.length() + " characters"));
        }
        return value;
    }
}
