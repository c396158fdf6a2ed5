package io.redkit.stream;

/**
 * Turns a payload into the bytes of its entry's {@code d} field (or a signal's message) and back.
 * {@link JsonCodec} (Jackson) is the default, so that services in other languages can read the stream.
 *
 * @param <T> the payload type
 */
public interface MessageCodec<T> {

    /** The payload's bytes; never called with {@code null}. */
    byte[] encode(T payload) throws Exception;

    /**
     * The payload from its bytes. An exception means the bytes can never be read by this codec: a message goes
     * to the dead-letter stream at once (no retry can fix it), a signal is dropped and counted.
     */
    T decode(byte[] bytes) throws Exception;
}
