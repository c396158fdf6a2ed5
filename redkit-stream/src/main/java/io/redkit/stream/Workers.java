package io.redkit.stream;

import java.time.Duration;
import java.util.List;

/** The workers one {@link StreamQueue#start} started; closing them stops them gracefully. */
public interface Workers extends AutoCloseable {

    /** Each worker, in start order. */
    List<Worker> workers();

    /** Whether any of them still runs. */
    boolean isRunning();

    /**
     * Stops them gracefully: no more reads; each finishes the batch in hand while the deadline allows; then a
     * handler still running is interrupted and left unacknowledged (handed out again after the visibility
     * timeout), what finished is acknowledged, and entries never started or waiting for a retry are handed back
     * so that other workers take them without waiting. A worker blocked in a read notices the stop when the read
     * returns (within {@link StreamConfig#block()}). Returns once every worker stopped, or at the latest a block
     * and a command timeout after the deadline (a handler that ignores its interrupt is left running).
     */
    ShutdownReport close(Duration deadline);

    /** {@link #close(Duration)} with {@link StreamConfig#shutdownDeadline()}. */
    @Override
    void close();
}
