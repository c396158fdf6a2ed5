package io.redkit.stream;

import java.util.OptionalLong;

/**
 * A queue as Redis sees it now.
 *
 * @param length entries in the stream ({@code XLEN}), handled ones included until trimmed
 * @param pending entries handed out and not yet acknowledged
 * @param lag entries not yet handed out to the group; empty when Redis cannot tell (entries were deleted)
 * @param consumers consumers known to the group, live or dead
 * @param deadLetters entries in the dead-letter stream
 */
public record QueueStats(long length, long pending, OptionalLong lag, long consumers, long deadLetters) {
}
