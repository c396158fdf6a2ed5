package io.redkit.session;

import java.util.Objects;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * Session data as JSON through Jackson, the default codec. Reader and writer are prepared once, so a load costs
 * one parse.
 *
 * @param <T> the data type
 */
public final class JsonSessionCodec<T> implements SessionCodec<T> {

    private static final ObjectMapper DEFAULT_MAPPER = new ObjectMapper().findAndRegisterModules();

    private final ObjectReader reader;
    private final ObjectWriter writer;

    private JsonSessionCodec(ObjectMapper mapper, Class<T> type) {
        this.reader = mapper.readerFor(Objects.requireNonNull(type, "type"));
        this.writer = mapper.writerFor(type);
    }

    /** JSON of {@code type}, with every Jackson module on the class path registered. */
    public static <T> JsonSessionCodec<T> of(Class<T> type) {
        return new JsonSessionCodec<>(DEFAULT_MAPPER, type);
    }

    /** JSON of {@code type} with the caller's mapper. */
    public static <T> JsonSessionCodec<T> of(ObjectMapper mapper, Class<T> type) {
        return new JsonSessionCodec<>(Objects.requireNonNull(mapper, "mapper"), type);
    }

    @Override
    public byte[] encode(T data) throws Exception {
        return writer.writeValueAsBytes(data);
    }

    @Override
    public T decode(byte[] bytes) throws Exception {
        return reader.readValue(bytes);
    }
}
