package io.redkit.testing;

/** Thrown when a test server cannot be started, reached or brought into the requested state. */
public class RedisTestingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates an exception with a message that says what failed and, where known, the server's log tail. */
    public RedisTestingException(String message) {
        super(message);
    }

    /** Creates an exception with a message and the underlying cause. */
    public RedisTestingException(String message, Throwable cause) {
        super(message, cause);
    }
}
