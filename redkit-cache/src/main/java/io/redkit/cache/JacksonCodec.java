package io.redkit.cache;

import java.lang.reflect.Type;
import java.util.Objects;

import io.redkit.json.Json;
import io.redkit.json.JsonBinding;

/**
 * JSON through Jackson 3 or Jackson 2 ({@link Json}): the default codec. The binding is prepared once, so a hit
 * costs one parse.
 *
 * @param <V> the value type
 */
public final class JacksonCodec<V> implements CacheCodec<V> {

    private final JsonBinding<V> binding;

    private JacksonCodec(JsonBinding<V> binding) {
        this.binding = binding;
    }

    /** JSON of {@code type} through {@link Json#defaults()}: the Jackson on the class path, redkit's settings. */
    public static <V> JacksonCodec<V> of(Class<V> type) {
        return using(Json.defaults(), type);
    }

    /**
     * JSON of {@code type} through the given library and mapper: the application's own, as {@code
     * Jackson3Json.of(mapper)} or {@code Jackson2Json.of(mapper)}.
     */
    public static <V> JacksonCodec<V> using(Json json, Class<V> type) {
        return using(json, (Type) type);
    }

    /** JSON of a generic type ({@code new TypeReference<List<Product>>() {}.getType()}, from either Jackson). */
    public static <V> JacksonCodec<V> using(Json json, Type type) {
        Objects.requireNonNull(json, "json");
        return new JacksonCodec<>(json.bind(Objects.requireNonNull(type, "type")));
    }

    @Override
    public byte[] encode(V value) throws Exception {
        return binding.write(value);
    }

    @Override
    public V decode(byte[] bytes) throws Exception {
        return binding.read(bytes);
    }

    @Override
    public V decode(byte[] bytes, int offset, int length) throws Exception {
        return binding.read(bytes, offset, length);
    }
}
