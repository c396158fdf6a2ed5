package io.redkit;

import java.util.Objects;

/**
 * Root of every failure redkit reports; a miss is never one of these, it is {@code Optional.empty()}.
 */
public class RedkitException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Outcome outcome;

    /** Creates a failure with a message, its outcome on the server and the cause reported by the client. */
    public RedkitException(String message, Outcome outcome, Throwable cause) {
        super(message, cause);
        this.outcome = Objects.requireNonNull(outcome, "outcome");
    }

    /** What the failed command did on the server, as far as the client can know. */
    public Outcome outcome() {
        return outcome;
    }
}
