package io.redkit.session;

/**
 * A read-modify-write of one session ({@link SessionStore#update(SessionId, java.util.function.UnaryOperator)},
 * a rotation) lost to other writers of the same session every time it tried, for 5 seconds: nothing of it was
 * written. Under ordinary load a retry succeeds within a few attempts; this means many requests of one user write
 * its session at once, which a service should answer with 409 or 503, never by writing blindly.
 */
public final class SessionConflictException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The store, the operation, how many attempts lost and in how long. */
    public SessionConflictException(String store, String operation, int attempts, java.time.Duration patience) {
        super("store '" + store + "': " + operation + " lost to concurrent writes of the session " + attempts
                + " times in " + patience.toMillis() + " ms; nothing written");
    }
}
