package io.redkit.json;

import java.lang.reflect.Type;
import java.util.Objects;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * {@link Json} on Jackson 2: the application's own mapper through {@link #of}, or redkit's ({@link Json#defaults()}
 * when Jackson 2 is the one on the class path). Its signatures name Jackson 2 only, so it is loaded only with it.
 */
public final class Jackson2Json implements Json {

    private final ObjectMapper mapper;
    private final String origin;

    private Jackson2Json(ObjectMapper mapper, String origin) {
        this.mapper = mapper;
        this.origin = origin;
    }

    /** Jackson 2 through the application's mapper, exactly as it is configured. */
    public static Json of(ObjectMapper mapper) {
        return new Jackson2Json(Objects.requireNonNull(mapper, "mapper"), "the application's mapper");
    }

    /** The settings {@link Json#defaults()} documents; {@code Jackson3Json.redkitDefaults()} is its twin. */
    static Json redkitDefaults() {
        ObjectMapper mapper = JsonMapper.builder()
                .findAndAddModules()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .build();
        return new Jackson2Json(mapper, "redkit's mapper");
    }

    @Override
    public <T> JsonBinding<T> bind(Type type) {
        var javaType = mapper.getTypeFactory().constructType(type);
        ObjectReader reader = mapper.readerFor(javaType);
        ObjectWriter writer = mapper.writerFor(javaType);
        return new JsonBinding<>() {
            @Override
            public byte[] write(T value) throws Exception {
                return writer.writeValueAsBytes(value);
            }

            @Override
            public T read(byte[] bytes) throws Exception {
                return reader.readValue(bytes);
            }

            @Override
            public T read(byte[] bytes, int offset, int length) throws Exception {
                return reader.readValue(bytes, offset, length);
            }
        };
    }

    @Override
    public String describe() {
        return "Jackson " + mapper.version() + " (" + origin + ")";
    }
}
