package io.redkit.json;

import java.lang.reflect.Type;
import java.util.Objects;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link Json} on Jackson 3: the application's own mapper through {@link #of}, or redkit's ({@link Json#defaults()}
 * when Jackson 3 is the one on the class path). Its signatures name Jackson 3 only, so it is loaded only with it.
 */
public final class Jackson3Json implements Json {

    private final ObjectMapper mapper;
    private final String origin;

    private Jackson3Json(ObjectMapper mapper, String origin) {
        this.mapper = mapper;
        this.origin = origin;
    }

    /** Jackson 3 through the application's mapper (a {@code JsonMapper}), exactly as it is configured. */
    public static Json of(ObjectMapper mapper) {
        return new Jackson3Json(Objects.requireNonNull(mapper, "mapper"), "the application's mapper");
    }

    /**
     * The settings {@link Json#defaults()} documents. Jackson 3 changed several defaults from Jackson 2 (dates as
     * text, enums by {@code toString()}, sorted properties, failing on {@code null} primitives); these put it where
     * {@code Jackson2Json.redkitDefaults()} is, so both write the same bytes.
     */
    static Json redkitDefaults() {
        ObjectMapper mapper = JsonMapper.builder()
                .findAndAddModules()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DateTimeFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DateTimeFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .disable(EnumFeature.WRITE_ENUMS_USING_TO_STRING)
                .disable(EnumFeature.READ_ENUMS_USING_TO_STRING)
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .build();
        return new Jackson3Json(mapper, "redkit's mapper");
    }

    @Override
    public <T> JsonBinding<T> bind(Type type) {
        var javaType = mapper.getTypeFactory().constructType(type);
        ObjectReader reader = mapper.readerFor(javaType);
        ObjectWriter writer = mapper.writerFor(javaType);
        return new JsonBinding<>() {
            @Override
            public byte[] write(T value) {
                return writer.writeValueAsBytes(value);
            }

            @Override
            public T read(byte[] bytes) {
                return reader.readValue(bytes);
            }

            @Override
            public T read(byte[] bytes, int offset, int length) {
                return reader.readValue(bytes, offset, length);
            }
        };
    }

    @Override
    public String describe() {
        return "Jackson " + mapper.version() + " (" + origin + ")";
    }
}
