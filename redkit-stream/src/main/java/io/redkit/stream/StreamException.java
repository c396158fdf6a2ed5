package io.redkit.stream;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/**
 * A stream or signal call refused before anything reached Redis: the payload could not be encoded, or the queue
 * is closed. Nothing was sent ({@link Outcome#NOT_EXECUTED}); Redis failures stay redkit's own exceptions.
 */
public final class StreamException extends RedkitException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; nothing was sent. */
    public StreamException(String message, Throwable cause) {
        super(message, Outcome.NOT_EXECUTED, cause);
    }
}
