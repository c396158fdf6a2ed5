package io.redkit.session;

import java.util.Objects;

import io.redkit.json.Json;
import io.redkit.json.JsonBinding;

/**
 * Session data as JSON through Jackson 3 or Jackson 2 ({@link Json}), the default codec. The binding is prepared
 * once, so a load costs one parse.
 *
 * @param <T> the data type
 */
public final class JsonSessionCodec<T> implements SessionCodec<T> {

    private final JsonBinding<T> binding;

    private JsonSessionCodec(Json json, Class<T> type) {
        this.binding = Objects.requireNonNull(json, "json").bind(Objects.requireNonNull(type, "type"));
    }

    /** JSON of {@code type} through {@link Json#defaults()}: the Jackson on the class path, redkit's settings. */
    public static <T> JsonSessionCodec<T> of(Class<T> type) {
        return new JsonSessionCodec<>(Json.defaults(), type);
    }

    /**
     * JSON of {@code type} through the given library and mapper: the application's own, as {@code
     * Jackson3Json.of(mapper)} or {@code Jackson2Json.of(mapper)}.
     */
    public static <T> JsonSessionCodec<T> using(Json json, Class<T> type) {
        return new JsonSessionCodec<>(json, type);
    }


    @Override
    public byte[] encode(T data) throws Exception {
        return binding.write(data);
    }

    @Override
    public T decode(byte[] bytes) throws Exception {
        return binding.read(bytes);
    }

    @Override
    public T decode(byte[] bytes, int offset, int length) throws Exception {
        return binding.read(bytes, offset, length);
    }
}
