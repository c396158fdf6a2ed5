package io.redkit.json;

import java.util.Arrays;

/**
 * One Java type's JSON: the bytes a value is stored as, and the value back. Made by a {@link Json} once per type, so
 * that a write costs one serialization and a read one parse. Instances are thread-safe.
 *
 * @param <T> the bound type
 */
public interface JsonBinding<T> {

    /** The value as UTF-8 JSON; never called with {@code null}. */
    byte[] write(T value) throws Exception;

    /** The value from UTF-8 JSON; throws when the bytes are not JSON of the bound type. */
    T read(byte[] bytes) throws Exception;

    /**
     * The value from {@code length} bytes of UTF-8 JSON in {@code bytes} from {@code offset}, read in place; by
     * default a copy of the slice (unless it is the whole array) for {@link #read(byte[])}.
     */
    default T read(byte[] bytes, int offset, int length) throws Exception {
        return read(offset == 0 && length == bytes.length ? bytes
                : Arrays.copyOfRange(bytes, offset, offset + length));
    }
}
