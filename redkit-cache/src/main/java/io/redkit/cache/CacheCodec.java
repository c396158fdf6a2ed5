package io.redkit.cache;

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
}
