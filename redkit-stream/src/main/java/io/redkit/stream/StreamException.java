package io.redkit.stream;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/**
 * A stream or signal call refused before anything was written: the payload could not be encoded, the queue is
 * closed, full ({@link QueueFullException}), the entry too large ({@link MessageTooLargeException}), or the server
 * not durable enough ({@link QueueDurabilityException}). Nothing was written ({@link Outcome#NOT_EXECUTED});
 * Redis failures stay redkit's own exceptions.
 */
public class StreamException extends RedkitException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; nothing was sent. */
    public StreamException(String message, Throwable cause) {
        super(message, Outcome.NOT_EXECUTED, cause);
    }
}
