package io.redkit.stream;

/**
 * A queue configured {@link StreamConfig.Durability#REQUIRE_AOF} was not created: a master runs without the
 * append-only file (a restart of it loses what publish acknowledged), or its configuration cannot be read.
 */
public final class QueueDurabilityException extends StreamException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public QueueDurabilityException(String message, Throwable cause) {
        super(message, cause);
    }
}
