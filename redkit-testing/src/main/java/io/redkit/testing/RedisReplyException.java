package io.redkit.testing;

/** Thrown by admin commands when the server answers with an error reply such as {@code ERR ...} or {@code NOAUTH ...}. */
public final class RedisReplyException extends RedisTestingException {

    private static final long serialVersionUID = 1L;

    /** Creates an exception from the error reply text, without the leading {@code -}. */
    public RedisReplyException(String reply) {
        super(reply);
    }

    /** Returns the error code, the first word of the reply (for example {@code ERR}, {@code NOGOODSLAVE}, {@code LOADING}). */
    public String code() {
        String reply = getMessage();
        int space = reply.indexOf(' ');
        return space < 0 ? reply : reply.substring(0, space);
    }
}
