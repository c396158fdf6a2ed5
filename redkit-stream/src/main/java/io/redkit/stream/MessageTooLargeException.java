package io.redkit.stream;

/**
 * {@link StreamQueue#publish} refused an entry larger than {@link StreamConfig#maxEntryBytes()} (its fields'
 * names and values, the encoded payload included) before anything was sent.
 */
public final class MessageTooLargeException extends StreamException {

    private static final long serialVersionUID = 1L;

    private final long bytes;
    private final long limit;

    /** Creates the exception for an entry of {@code bytes} against a limit of {@code limit}. */
    public MessageTooLargeException(String stream, long bytes, long limit) {
        super("message of " + bytes + " bytes refused by queue '" + stream + "': maxEntryBytes is " + limit
                + "; nothing was sent (keep large payloads elsewhere and publish a reference)", null);
        this.bytes = bytes;
        this.limit = limit;
    }

    /** The entry's size. */
    public long bytes() {
        return bytes;
    }

    /** The limit ({@link StreamConfig#maxEntryBytes()}). */
    public long limit() {
        return limit;
    }
}
