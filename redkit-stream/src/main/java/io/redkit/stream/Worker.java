package io.redkit.stream;

/** One worker: a thread and a dedicated connection reading as one consumer of the group. */
public interface Worker {

    /** The consumer name it reads as ({@code <prefix>-<n>}). */
    String consumer();

    /** Whether its thread still runs. */
    boolean isRunning();

    /**
     * Stops it at once, as a crash would: a handler running is interrupted, nothing more is acknowledged, and
     * everything it holds stays pending, to be claimed by other workers after the visibility timeout. For a
     * handler stuck for good, and for tests. Does not wait.
     */
    void abort();
}
