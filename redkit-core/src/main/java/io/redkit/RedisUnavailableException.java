package io.redkit;

/**
 * Redis could not be reached or is not ready to serve (disconnected, connection refused, failover in progress,
 * {@code LOADING}, {@code READONLY} on a demoted master). {@link #outcome()} says whether the command was sent.
 */
public final class RedisUnavailableException extends RedkitException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code outcome} is NOT_EXECUTED when the command was rejected before it was sent. */
    public RedisUnavailableException(String message, Outcome outcome, Throwable cause) {
        super(message, outcome, cause);
    }
}
