package io.redkit.session;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/**
 * A session whose stored form is above {@link SessionConfig#maxSessionBytes()}; refused before it is written
 * ({@link Outcome#NOT_EXECUTED}). Every request reads the whole session: large state belongs in a database row
 * or a cache entry keyed by the user, with the session holding its key.
 */
public final class SessionTooLargeException extends RedkitException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception for a session of {@code size} bytes over {@code limit}. */
    public SessionTooLargeException(String store, int size, int limit) {
        super("store '" + store + "': session of " + size + " bytes is above the limit of " + limit
                + " bytes; not written", Outcome.NOT_EXECUTED, null);
    }
}
