package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.redkit.cache.internal.Envelope;

class EnvelopeTest {

    private static final byte[] JSON = "{\"id\":42,\"priceCents\":1999}".getBytes(StandardCharsets.UTF_8);

    @Test
    void valueRoundTripsWithItsXFetchInputs() {
        byte[] bytes = Envelope.value(3, 1_700_000_000_000L, 120, JSON, 1024).bytes();
        Envelope.Decoded d = Envelope.decode(bytes, 3);
        assertThat(d.status()).isEqualTo(Envelope.Status.VALUE);
        assertThat(d.payload()).isEqualTo(JSON);
        assertThat(d.expiresAtMillis()).isEqualTo(1_700_000_000_000L);
        assertThat(d.recomputeMillis()).isEqualTo(120);
        assertThat(bytes).hasSize(18 + JSON.length);
    }

    @Test
    void entryOfAnotherSchemaVersionIsAMiss() {
        byte[] bytes = Envelope.value(1, 0, 1, JSON, 1024).bytes();
        assertThat(Envelope.decode(bytes, 2).status()).isEqualTo(Envelope.Status.OTHER_VERSION);
        assertThat(Envelope.decode(bytes, 2).usable()).isFalse();
    }

    @Test
    void garbageTruncationAndBrokenCompressionAreCorruptNotErrors() {
        assertThat(Envelope.decode("plain json".getBytes(StandardCharsets.UTF_8), 1).status())
                .isEqualTo(Envelope.Status.CORRUPT);
        assertThat(Envelope.decode(new byte[] {'r', 'k', 1}, 1).status()).isEqualTo(Envelope.Status.CORRUPT);
        byte[] big = "a".repeat(10_000).getBytes(StandardCharsets.UTF_8);
        byte[] compressed = Envelope.value(1, 0, 1, big, 1024).bytes();
        byte[] truncated = java.util.Arrays.copyOf(compressed, compressed.length - 3);
        assertThat(Envelope.decode(truncated, 1).status()).isEqualTo(Envelope.Status.CORRUPT);
    }

    @Test
    void payloadAboveTheThresholdIsDeflatedAndInflatesBack() {
        byte[] big = "product ".repeat(5_000).getBytes(StandardCharsets.UTF_8);
        Envelope.Encoded encoded = Envelope.value(1, 0, 1, big, 1024);
        assertThat(encoded.compressed()).isTrue();
        assertThat(encoded.bytes().length).isLessThan(big.length / 10);
        assertThat(Envelope.decode(encoded.bytes(), 1).payload()).isEqualTo(big);
        assertThat(Envelope.value(1, 0, 1, JSON, 1024).compressed()).isFalse();
    }

    @Test
    void notFoundMarkerHasNoPayload() {
        Envelope.Decoded d = Envelope.decode(Envelope.notFound(1, 5, 6), 1);
        assertThat(d.status()).isEqualTo(Envelope.Status.NOT_FOUND);
        assertThat(d.usable()).isTrue();
        assertThat(d.payload()).isNull();
    }
}
