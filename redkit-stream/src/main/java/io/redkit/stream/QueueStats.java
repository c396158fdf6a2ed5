package io.redkit.stream;

import java.util.OptionalLong;

/**
 * A queue as Redis and this process see it now.
 *
 * @param length entries in the stream ({@code XLEN}), acknowledged ones included until trimmed
 * @param pending entries handed out and not yet acknowledged
 * @param lag entries not yet handed out to the group; empty when Redis cannot tell (entries were deleted)
 * @param consumers consumers known to the group, live or dead
 * @param deadLetters entries in the dead-letter stream
 * @param workers workers this process started on the queue and has not stopped
 * @param workersRunning of those, how many run now; fewer while one restarts after a failure it did not survive
 * @param persistence how the masters keep the stream across a restart (see {@link Persistence})
 */
public record QueueStats(long length, long pending, OptionalLong lag, long consumers, long deadLetters, int workers,
        int workersRunning, Persistence persistence) {

    /** Whether fewer workers run than this process started. */
    public boolean degraded() {
        return workersRunning < workers;
    }

    /** What a restart of the server (a crash, a kill) does to acknowledged publishes, by its configuration. */
    public enum Persistence {
        /** {@code appendonly yes}, {@code appendfsync always}: nothing acknowledged is lost, even to a power cut. */
        AOF_ALWAYS,
        /**
         * {@code appendonly yes}, {@code appendfsync everysec}: a killed server loses nothing (the write reached the
         * OS); a machine that loses power loses up to about a second.
         */
        AOF_EVERYSEC,
        /** {@code appendonly yes}, {@code appendfsync no}: as everysec for a killed server; the OS decides for power. */
        AOF_NO_FSYNC,
        /** No append-only file: a restart loses every entry written since the last snapshot (all of them without one). */
        NO_AOF,
        /** The configuration could not be read (an ACL without {@code CONFIG}, or Redis unavailable). */
        UNKNOWN
    }
}
