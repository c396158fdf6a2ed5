package io.redkit.stream;

/**
 * {@link StreamQueue#publish} refused: the stream holds {@link StreamConfig#maxLength()} entries that some group
 * has not acknowledged yet, and the queue never trims those (they are work nobody has done). Nothing was added.
 * This is back-pressure: slow the producer down, retry later, or start more workers; a queue that must accept
 * every message and may lose the oldest instead chooses {@link StreamConfig.Overflow#DROP_OLDEST}.
 */
public final class QueueFullException extends StreamException {

    private static final long serialVersionUID = 1L;

    private final long length;
    private final long maxLength;

    /** Creates the exception for a stream of {@code length} entries against a cap of {@code maxLength}. */
    public QueueFullException(String stream, long length, long maxLength) {
        super("queue '" + stream + "' is full: " + length + " entries not yet acknowledged by every group (maxLength "
                + maxLength + "); nothing was added", null);
        this.length = length;
        this.maxLength = maxLength;
    }

    /** Entries in the stream when the publish was refused. */
    public long length() {
        return length;
    }

    /** The cap ({@link StreamConfig#maxLength()}). */
    public long maxLength() {
        return maxLength;
    }
}
