package io.redkit;

/**
 * The server answered with an error reply ({@code WRONGTYPE}, {@code ERR}, a Lua error): a bug or a data problem
 * on the caller's side, not an outage. {@link #errorCode()} is the first word of the reply.
 */
public final class RedisCommandException extends RedkitException {

    private static final long serialVersionUID = 1L;

    private final String errorCode;

    /** Creates the exception from the server's error reply. */
    public RedisCommandException(String command, String reply, Throwable cause) {
        super(command + " failed: " + reply, Outcome.FAILED, cause);
        this.errorCode = firstWord(reply);
    }

    /** The error code of the reply, e.g. {@code WRONGTYPE}, {@code ERR}, {@code NOSCRIPT}. */
    public String errorCode() {
        return errorCode;
    }

    private static String firstWord(String reply) {
        if (reply == null || reply.isBlank()) {
            return "ERR";
        }
        String trimmed = reply.strip();
        int space = trimmed.indexOf(' ');
        return space < 0 ? trimmed : trimmed.substring(0, space);
    }
}
