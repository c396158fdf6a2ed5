package io.redkit.session;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/**
 * Text that is not a session id, refused before any Redis call ({@link Outcome#NOT_EXECUTED}). The message gives
 * the reason and the length, never the text: it may be a real id with one character wrong, or megabytes of junk.
 * {@link SessionStore#load(String)} does not throw it: a cookie that is not an id is no session, a miss.
 */
public final class InvalidSessionIdException extends RedkitException {

    private static final long serialVersionUID = 1L;

    /** What is wrong with the text. */
    public enum Reason {
        /** No text at all. */
        NULL,
        /** Not 43 characters. */
        LENGTH,
        /** A character outside {@code A-Z a-z 0-9 - _} (padding, standard base64, spaces, non-ASCII). */
        ALPHABET,
        /** The last character has unused bits set: a second spelling of another id's bytes. */
        NOT_CANONICAL
    }

    private final Reason reason;

    /** Creates the exception for {@code reason}; {@code length} is the text's length, or -1 for null. */
    public InvalidSessionIdException(Reason reason, int length) {
        super("not a session id (" + reason + (length >= 0 ? ", " + length + " characters" : "")
                + "): an id is 43 characters of base64url; nothing was sent to Redis", Outcome.NOT_EXECUTED, null);
        this.reason = reason;
    }

    /** What is wrong with the text. */
    public Reason reason() {
        return reason;
    }
}
