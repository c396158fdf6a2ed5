package io.redkit.stream;

import java.util.Objects;

import io.redkit.json.Json;
import io.redkit.json.JsonBinding;

/**
 * JSON through Jackson 3 or Jackson 2 ({@link Json}), the default payload codec. With the default mapper,
 * properties this release does not know are ignored, so that a producer deployed ahead of its consumers may add a
 * field without every message of the rollout going to the dead-letter stream.
 *
 * @param <T> the payload type
 */
public final class JsonCodec<T> implements MessageCodec<T> {

    private final JsonBinding<T> binding;

    private JsonCodec(Json json, Class<T> type) {
        this.binding = Objects.requireNonNull(json, "json").bind(Objects.requireNonNull(type, "type"));
    }

    /** JSON of {@code type} through {@link Json#defaults()}: the Jackson on the class path, redkit's settings. */
    public static <T> JsonCodec<T> of(Class<T> type) {
        return new JsonCodec<>(Json.defaults(), type);
    }

    /**
     * JSON of {@code type} through the given library and mapper: the application's own, as {@code
     * Jackson3Json.of(mapper)} or {@code Jackson2Json.of(mapper)}.
     */
    public static <T> JsonCodec<T> using(Json json, Class<T> type) {
        return new JsonCodec<>(json, type);
    }


    @Override
    public byte[] encode(T payload) throws Exception {
        return binding.write(payload);
    }

    @Override
    public T decode(byte[] bytes) throws Exception {
        return binding.read(bytes);
    }
}
