package io.redkit.stream;

/** The payload of the tests' messages. */
public record Job(int n) {
}
