package io.redkit;

import java.time.Duration;

/**
 * Every dedicated connection stayed taken for the whole pool wait; nothing was sent.
 */
public final class PoolExhaustedException extends RedkitException {

    private static final long serialVersionUID = 1L;

    private final int poolSize;
    private final Duration waited;

    /** Creates the exception for a pool of {@code poolSize} connections after waiting {@code waited}. */
    public PoolExhaustedException(int poolSize, Duration waited) {
        super("all " + poolSize + " dedicated connections stayed in use for " + waited.toMillis()
                + " ms; nothing was sent (raise dedicatedPool maxSize, or return connections sooner)",
                Outcome.NOT_EXECUTED, null);
        this.poolSize = poolSize;
        this.waited = waited;
    }

    /** The maximum number of dedicated connections. */
    public int poolSize() {
        return poolSize;
    }

    /** How long the caller waited for a connection. */
    public Duration waited() {
        return waited;
    }
}
