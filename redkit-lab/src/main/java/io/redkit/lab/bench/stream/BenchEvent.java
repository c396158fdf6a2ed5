package io.redkit.lab.bench.stream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * The message of {@code bench stream}: a sequence number and the producer's {@code System.nanoTime()}, as JSON in
 * field {@code d} beside {@code v} and {@code k}, the layout redkit's queue writes, so that every contender
 * produces, stores and decodes the same entry.
 *
 * @param seq the message's number
 * @param ts when it was produced (monotonic nanos of this JVM)
 */
public record BenchEvent(long seq, long ts) {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectReader READER = MAPPER.readerFor(BenchEvent.class);
    private static final ObjectWriter WRITER = MAPPER.writerFor(BenchEvent.class);

    /** The entry's fields as strings: what Spring's and Redisson's string codecs write. */
    Map<String, String> fields() {
        Map<String, String> fields = new LinkedHashMap<>(4);
        fields.put("v", "1");
        fields.put("k", UUID.randomUUID().toString());
        fields.put("d", new String(json(), StandardCharsets.UTF_8));
        return fields;
    }

    /** The entry's fields as bytes: what raw Lettuce writes with a byte-array codec. */
    Map<String, byte[]> byteFields() {
        Map<String, byte[]> fields = new LinkedHashMap<>(4);
        fields.put("v", new byte[] {'1'});
        fields.put("k", UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
        fields.put("d", json());
        return fields;
    }

    byte[] json() {
        try {
            return WRITER.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static BenchEvent parse(byte[] json) {
        try {
            return READER.readValue(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static BenchEvent parse(String json) {
        return parse(json.getBytes(StandardCharsets.UTF_8));
    }
}
