package io.redkit.session;

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
}
