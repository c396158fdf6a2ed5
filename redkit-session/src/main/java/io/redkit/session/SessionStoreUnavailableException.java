package io.redkit.session;

import io.redkit.RedkitException;

/**
 * The session store (or the token deny-list) could not answer: Redis timed out, is disconnected, or refused the
 * command. Sessions fail closed: the caller gets this, within the command timeout, and never an empty or
 * anonymous session in place of a real one; a service answers 503. {@link #outcome()} is the cause's: after
 * {@code UNKNOWN} a write may have happened (a logout may have ended the session, or not).
 */
public final class SessionStoreUnavailableException extends RedkitException {

    private static final long serialVersionUID = 1L;

    /** Wraps the Redis failure of {@code operation} on the store {@code store}. */
    public SessionStoreUnavailableException(String store, String operation, RedkitException cause) {
        super("sessions unavailable: store '" + store + "', " + operation + ": " + cause.getMessage(),
                cause.outcome(), cause);
    }
}
