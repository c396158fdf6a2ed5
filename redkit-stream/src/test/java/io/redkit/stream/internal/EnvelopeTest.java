package io.redkit.stream.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.redkit.StreamEntry;
import io.redkit.stream.JsonCodec;
import io.redkit.stream.MessageCodec;
import io.redkit.stream.StreamException;

class EnvelopeTest {

    record Order(long id, long cents) {
    }

    private final Envelope<Order> envelope = new Envelope<>(JsonCodec.of(Order.class));

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anEntryIsVersionKeyAndJsonThatAnyLanguageCanRead() {
        Map<String, byte[]> fields = envelope.encode("key-1", new Order(42, 1999));
        assertThat(fields.keySet()).containsExactly("v", "k", "d");
        assertThat(new String(fields.get("v"), StandardCharsets.UTF_8)).isEqualTo("1");
        assertThat(new String(fields.get("d"), StandardCharsets.UTF_8)).isEqualTo("{\"id\":42,\"cents\":1999}");
        assertThat(envelope.decode(new StreamEntry("1-0", fields)))
                .isEqualTo(new Envelope.Readable<>("key-1", new Order(42, 1999)));
    }

    @Test
    void aFieldAddedByANewerProducerIsIgnored() {
        Envelope.Decoded<Order> d = envelope.decode(new StreamEntry("1-0", Map.of("v", b("1"), "k", b("k"),
                "d", b("{\"id\":1,\"cents\":2,\"currency\":\"EUR\"}"), "trace", b("abc"))));
        assertThat(d).isEqualTo(new Envelope.Readable<>("k", new Order(1, 2)));
    }

    @Test
    void brokenJsonOrForeignFieldsCanNeverBeRead() {
        assertThat(envelope.decode(new StreamEntry("1-0", Map.of("v", b("1"), "d", b("{not json")))))
                .isInstanceOf(Envelope.Unreadable.class);
        assertThat(envelope.decode(new StreamEntry("1-0", Map.of("order", b("42")))))
                .isInstanceOf(Envelope.Unreadable.class);
    }

    @Test
    void aJsonNullPayloadCanNeverBeHandledAndIsUnreadable() {
        assertThat(envelope.decode(new StreamEntry("1-0", Map.of("v", b("1"), "k", b("k"), "d", b("null")))))
                .isEqualTo(new Envelope.Unreadable<>("payload decodes to null"));
    }

    @Test
    void aNewerFormatIsNotUnreadableButAnotherVersion() {
        assertThat(envelope.decode(new StreamEntry("1-0", Map.of("v", b("2"), "d", b("x")))))
                .isEqualTo(new Envelope.OtherVersion<>("2"));
    }

    @Test
    void aPayloadThatCannotBeEncodedIsRefusedBeforeAnythingIsSent() {
        Envelope<Object> any = new Envelope<>(new MessageCodec<Object>() {
            @Override
            public byte[] encode(Object payload) {
                throw new IllegalStateException("cannot encode");
            }

            @Override
            public Object decode(byte[] bytes) {
                return bytes;
            }
        });
        assertThatThrownBy(() -> any.encode("k", "x")).isInstanceOf(StreamException.class)
                .hasMessageContaining("cannot encode");
    }
}
