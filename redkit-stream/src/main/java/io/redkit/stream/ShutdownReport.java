package io.redkit.stream;

/**
 * What a graceful {@link Workers#close(java.time.Duration)} did.
 *
 * @param workers how many workers were stopped
 * @param acknowledged messages whose handler returned after the close was asked for and that were acknowledged;
 *     messages handled before it are not counted, even when their acknowledgement was sent after it
 * @param interrupted handlers still running at the deadline, and interrupted: each one that threw (or was
 *     aborted) is left pending, handed out again after the visibility timeout; one that swallowed the interrupt
 *     and returned normally was acknowledged, and is counted in {@code acknowledged} too
 * @param handedBack entries never started, or waiting for a retry, handed back for other workers
 * @param withinDeadline whether every worker stopped before the deadline (plus a grace for the interrupt)
 */
public record ShutdownReport(int workers, long acknowledged, long interrupted, long handedBack,
        boolean withinDeadline) {
}
