package io.redkit.stream;

/**
 * What a graceful {@link Workers#close(java.time.Duration)} did.
 *
 * @param workers how many workers were stopped
 * @param acknowledged messages whose handling finished during the shutdown and that were acknowledged
 * @param interrupted handlers still running at the deadline, interrupted and left pending
 * @param handedBack entries never started, or waiting for a retry, handed back for other workers
 * @param withinDeadline whether every worker stopped before the deadline (plus a grace for the interrupt)
 */
public record ShutdownReport(int workers, long acknowledged, long interrupted, long handedBack,
        boolean withinDeadline) {
}
