package io.redkit.cache;

import java.util.Objects;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * JSON through Jackson: the default codec. Readers and writers are prepared once, so a hit costs one parse.
 *
 * @param <V> the value type
 */
public final class JacksonCodec<V> implements CacheCodec<V> {

    private static final ObjectMapper DEFAULT_MAPPER = new ObjectMapper().findAndRegisterModules();

    private final ObjectReader reader;
    private final ObjectWriter writer;

    private JacksonCodec(ObjectMapper mapper, JavaType type) {
        this.reader = mapper.readerFor(type);
        this.writer = mapper.writerFor(type);
    }

    /** JSON of {@code type} with a mapper that has every module on the class path registered. */
    public static <V> JacksonCodec<V> of(Class<V> type) {
        return of(DEFAULT_MAPPER, type);
    }

    /** JSON of {@code type} with the given mapper. */
    public static <V> JacksonCodec<V> of(ObjectMapper mapper, Class<V> type) {
        Objects.requireNonNull(mapper, "mapper");
        Objects.requireNonNull(type, "type");
        return new JacksonCodec<>(mapper, mapper.constructType(type));
    }

    /** JSON of a generic type ({@code new TypeReference<List<Product>>() {}}). */
    public static <V> JacksonCodec<V> of(ObjectMapper mapper, TypeReference<V> type) {
        Objects.requireNonNull(mapper, "mapper");
        Objects.requireNonNull(type, "type");
        return new JacksonCodec<>(mapper, mapper.constructType(type));
    }

    @Override
    public byte[] encode(V value) throws Exception {
        return writer.writeValueAsBytes(value);
    }

    @Override
    public V decode(byte[] bytes) throws Exception {
        return reader.readValue(bytes);
    }
}
