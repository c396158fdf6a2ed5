package io.redkit.cache.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redkit.RedkitClock;
import io.redkit.cache.CacheCodec;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.CacheFormat;

/**
 * A hit hands the codec the array Redis answered, with the payload's offset and length (issue 21: copying the
 * payload out of the envelope first was the largest cost redkit added to a batch read). Inflated payloads are the
 * exception: they have an array of their own.
 */
class HitDecodeTest {

    /** What the codec was handed, call by call. */
    record Slice(byte[] array, int offset, int length) {
    }

    private final List<Slice> handed = new ArrayList<>();

    private final CacheCodec<String> recording = new CacheCodec<>() {
        @Override
        public byte[] encode(String value) {
            return ("\"" + value + "\"").getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] bytes) {
            throw new AssertionError("the cache reads through decode(bytes, offset, length)");
        }

        @Override
        public String decode(byte[] bytes, int offset, int length) {
            handed.add(new Slice(bytes, offset, length));
            return new String(bytes, offset + 1, length - 2, StandardCharsets.UTF_8);
        }
    };

    /** {@code compressAbove} 0: the format's default. */
    private EntryCodec<String> entries(CacheFormat format, int compressAbove) {
        var builder = CacheConfig.<Long, String>builder().name("slices").codec(recording).format(format);
        if (compressAbove > 0) {
            builder.compressAbove(compressAbove);
        }
        CacheConfig<Long, String> config = builder.loader(id -> Optional.empty()).config();
        return new EntryCodec<>(config, RedkitClock.SYSTEM, new CacheMetrics(new SimpleMeterRegistry(), "t", "slices"));
    }

    @Test
    void anEnvelopesPayloadIsDecodedInTheArrayRedisAnsweredAfterItsHeader() {
        EntryCodec<String> entries = entries(CacheFormat.ENVELOPE, 0);
        byte[] stored = entries.encode(Optional.of("kettle"), 1_000_000).bytes();

        assertThat(entries.read(stored).answer()).contains("kettle");

        assertThat(handed).hasSize(1);
        assertThat(handed.get(0).array()).isSameAs(stored);
        assertThat(handed.get(0).offset()).isEqualTo(Envelope.HEADER);
        assertThat(handed.get(0).length()).isEqualTo(stored.length - Envelope.HEADER);
    }

    @Test
    void aPlainJsonEntryIsDecodedWhole() {
        EntryCodec<String> entries = entries(CacheFormat.PLAIN_JSON, 0);
        byte[] stored = "\"kettle\"".getBytes(StandardCharsets.UTF_8);

        assertThat(entries.read(stored).answer()).contains("kettle");

        assertThat(handed).containsExactly(new Slice(stored, 0, stored.length));
    }

    @Test
    void aDeflatedPayloadIsDecodedFromItsInflatedArray() {
        EntryCodec<String> entries = entries(CacheFormat.ENVELOPE, 64);
        String big = "kettle ".repeat(100);
        byte[] stored = entries.encode(Optional.of(big), 1_000_000).bytes();
        assertThat(stored.length).isLessThan(big.length());

        assertThat(entries.read(stored).answer()).contains(big);

        assertThat(handed).hasSize(1);
        assertThat(handed.get(0).array()).isNotSameAs(stored);
        assertThat(handed.get(0).offset()).isZero();
        assertThat(handed.get(0).length()).isEqualTo(big.length() + 2);
    }
}
