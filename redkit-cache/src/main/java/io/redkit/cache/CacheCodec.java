package io.redkit.cache;

import java.util.Arrays;

/**
 * Turns a value into the bytes inside the cache envelope and back. {@link JacksonCodec} (JSON) is the default, so
 * that services in other languages can read the cache.
 *
 * @param <V> the value type
 */
public interface CacheCodec<V> {

    /** The value's bytes; never called with {@code null}. */
    byte[] encode(V value) throws Exception;

    /** The value from its bytes; an exception makes the entry a miss (reload and overwrite), never an error. */
    V decode(byte[] bytes) throws Exception;

    /**
     * The value from {@code length} bytes of {@code bytes} from {@code offset}: how the cache calls the codec, since
     * an entry's payload follows its header in the array Redis answered. Override it to read the slice in place (as
     * {@link JacksonCodec} does); by default it copies the slice (unless it is the whole array) for {@link
     * #decode(byte[])}. Same contract as that method.
     */
    default V decode(byte[] bytes, int offset, int length) throws Exception {
        return decode(offset == 0 && length == bytes.length ? bytes
                : Arrays.copyOfRange(bytes, offset, offset + length));
    }
}
