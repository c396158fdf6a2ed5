package io.redkit;

import java.time.Duration;

/**
 * No reply came within the command timeout. The outcome is {@link Outcome#UNKNOWN}: the command may have run,
 * so only an idempotent command may be sent again.
 */
public final class RedisTimeoutException extends RedkitException {

    private static final long serialVersionUID = 1L;

    private final String command;
    private final Duration timeout;

    /** Creates the exception for the named command and the timeout that ran out. */
    public RedisTimeoutException(String command, Duration timeout, Throwable cause) {
        super(command + " got no reply within " + timeout.toMillis()
                + " ms; outcome UNKNOWN: the command may have run on the server", Outcome.UNKNOWN, cause);
        this.command = command;
        this.timeout = timeout;
    }

    /** The command that timed out, e.g. {@code INCR}. */
    public String command() {
        return command;
    }

    /** The timeout that ran out. */
    public Duration timeout() {
        return timeout;
    }
}
