package io.redkit.session;

import java.util.Arrays;

/**
 * Turns a session's data into the payload stored after the session header, and back. {@link JsonSessionCodec}
 * (JSON through Jackson) is the default, so that a service in another language can read the session.
 *
 * @param <T> the data type
 */
public interface SessionCodec<T> {

    /** The data's bytes; never called with {@code null}. */
    byte[] encode(T data) throws Exception;

    /** The data from its bytes; an exception ends the session (the user signs in again), never another's data. */
    T decode(byte[] bytes) throws Exception;

    /**
     * The data from {@code length} bytes of {@code bytes} from {@code offset}: how the store calls the codec, since
     * the payload follows the session header in the array Redis answered. Override it to read the slice in place
     * (as {@link JsonSessionCodec} does); by default it copies the slice (unless it is the whole array) for {@link
     * #decode(byte[])}. Same contract as that method.
     */
    default T decode(byte[] bytes, int offset, int length) throws Exception {
        return decode(offset == 0 && length == bytes.length ? bytes
                : Arrays.copyOfRange(bytes, offset, offset + length));
    }
}
