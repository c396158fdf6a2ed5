package io.redkit.stream.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import io.redkit.StreamEntry;
import io.redkit.stream.MessageCodec;
import io.redkit.stream.StreamException;

/**
 * The fields of an entry, readable from any language: {@code v} the format version ({@code 1}), {@code k} the
 * message key, {@code d} the payload as the codec wrote it. A reader ignores fields it does not know.
 *
 * @param <T> the payload type
 */
final class Envelope<T> {

    static final String VERSION = "v";
    static final String KEY = "k";
    static final String DATA = "d";
    private static final byte[] V1 = "1".getBytes(StandardCharsets.UTF_8);

    private final MessageCodec<T> codec;

    Envelope(MessageCodec<T> codec) {
        this.codec = codec;
    }

    /** What an entry's fields turned out to hold. */
    sealed interface Decoded<T> {
    }

    /** A message of format 1 whose payload decoded. */
    record Readable<T>(String key, T payload) implements Decoded<T> {
    }

    /** Fields no delivery can ever read: a missing field, or a payload the codec refuses. */
    record Unreadable<T>(String reason) implements Decoded<T> {
    }

    /** A format this release does not know, written by a newer producer: a newer consumer may read it. */
    record OtherVersion<T>(String version) implements Decoded<T> {
    }

    Map<String, byte[]> encode(String key, T payload) {
        byte[] data;
        try {
            data = codec.encode(payload);
        } catch (Exception e) {
            throw new StreamException("payload could not be encoded, nothing was published: " + e, e);
        }
        if (data == null) {
            throw new StreamException("the codec encoded the payload as null, nothing was published", null);
        }
        Map<String, byte[]> fields = new LinkedHashMap<>(4);
        fields.put(VERSION, V1);
        fields.put(KEY, key.getBytes(StandardCharsets.UTF_8));
        fields.put(DATA, data);
        return fields;
    }

    Decoded<T> decode(StreamEntry entry) {
        Map<String, byte[]> fields = entry.fields();
        byte[] version = fields.get(VERSION);
        if (version == null) {
            return new Unreadable<>("no '" + VERSION + "' field: not written by a redkit queue (fields "
                    + fields.keySet() + ")");
        }
        if (!Arrays.equals(version, V1)) {
            return new OtherVersion<>(new String(version, StandardCharsets.UTF_8));
        }
        byte[] data = fields.get(DATA);
        if (data == null) {
            return new Unreadable<>("no '" + DATA + "' field");
        }
        byte[] key = fields.get(KEY);
        T payload;
        try {
            payload = codec.decode(data);
        } catch (Exception e) {
            return new Unreadable<>("payload does not decode: " + Errors.describe(e));
        }
        if (payload == null) {
            // JSON null (or a codec that gives null): no handler can do anything with it, on any delivery.
            return new Unreadable<>("payload decodes to null");
        }
        return new Readable<>(key == null ? entry.id() : new String(key, StandardCharsets.UTF_8), payload);
    }
}
