package io.redkit.stream;

import java.util.Objects;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * JSON through Jackson, the default payload codec. Properties this release does not know are ignored, so that a
 * producer deployed ahead of its consumers may add a field without every message of the rollout going to the
 * dead-letter stream.
 *
 * @param <T> the payload type
 */
public final class JsonCodec<T> implements MessageCodec<T> {

    private static final ObjectMapper MAPPER = new ObjectMapper().findAndRegisterModules()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final ObjectReader reader;
    private final ObjectWriter writer;

    private JsonCodec(ObjectMapper mapper, JavaType type) {
        this.reader = mapper.readerFor(type);
        this.writer = mapper.writerFor(type);
    }

    /** JSON of {@code type}, with every Jackson module on the class path and unknown properties ignored. */
    public static <T> JsonCodec<T> of(Class<T> type) {
        return new JsonCodec<>(MAPPER, MAPPER.constructType(Objects.requireNonNull(type, "type")));
    }

    /** JSON of {@code type} with the caller's mapper, as it is configured. */
    public static <T> JsonCodec<T> of(ObjectMapper mapper, Class<T> type) {
        Objects.requireNonNull(mapper, "mapper");
        return new JsonCodec<>(mapper, mapper.constructType(Objects.requireNonNull(type, "type")));
    }

    @Override
    public byte[] encode(T payload) throws Exception {
        return writer.writeValueAsBytes(payload);
    }

    @Override
    public T decode(byte[] bytes) throws Exception {
        return reader.readValue(bytes);
    }
}
