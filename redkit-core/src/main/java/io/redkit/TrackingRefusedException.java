package io.redkit;

/**
 * The server refused {@code CLIENT TRACKING} (a server older than Redis 6, a proxy that does not pass it on, an ACL
 * user without the command), or this topology has no tracked reads; the message carries the server's answer.
 */
public class TrackingRefusedException extends RedkitException {

    private static final long serialVersionUID = 1L;

    /** The server's answer, or why tracking is not offered here. */
    public TrackingRefusedException(String message, Throwable cause) {
        super(message, Outcome.NOT_EXECUTED, cause);
    }
}
