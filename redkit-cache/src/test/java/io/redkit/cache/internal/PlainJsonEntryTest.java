package io.redkit.cache.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redkit.RedkitClock;
import io.redkit.cache.CacheCodec;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.CacheFormat;
import io.redkit.cache.JacksonCodec;

/**
 * What a {@code PLAIN_JSON} entry holds and how it reads back: the codec's JSON and nothing else, {@code null} as
 * the "not found" marker, foreign garbage as a counted miss, and XFetch on the key's remaining life. No Redis here:
 * {@code PlainJsonCacheIT} and {@code NodeSharedCacheIT} carry the same bytes through a server.
 */
class PlainJsonEntryTest {

    record Product(long id, String name, long priceMinor, Instant updatedAt) {
    }

    private static final Product PRODUCT = new Product(42, "Kettle", 1999, Instant.parse("2026-12-06T14:07:01.123Z"));
    private static final long FIFTY_MS = Duration.ofMillis(50).toNanos();

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private int clients;

    private <V> EntryCodec<V> entries(CacheCodec<V> codec, double beta) {
        return entries(codec, beta, CacheFormat.PLAIN_JSON);
    }

    private <V> EntryCodec<V> entries(CacheCodec<V> codec, double beta, CacheFormat format) {
        CacheConfig<Long, V> config = CacheConfig.<Long, V>builder().name("plain").codec(codec)
                .format(format).earlyRefreshBeta(beta).loader(id -> Optional.empty()).config();
        return new EntryCodec<>(config, RedkitClock.SYSTEM, new CacheMetrics(meters, "test" + clients++, "plain"));
    }

    private double decodeErrors() {
        return meters.find("redkit.cache.errors").tag("kind", "decode").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    @Test
    void theStoredValueIsExactlyTheCodecsJsonWithTimeAsRfc3339Text() throws Exception {
        JacksonCodec<Product> codec = JacksonCodec.of(Product.class);
        EntryCodec.Stored stored = entries(codec, 1).encode(Optional.of(PRODUCT), FIFTY_MS);

        assertThat(stored.bytes()).isEqualTo(codec.encode(PRODUCT));
        assertThat(new String(stored.bytes(), StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":42,\"name\":\"Kettle\",\"priceMinor\":1999,\"updatedAt\":\"2026-12-06T14:07:01.123Z\"}");
    }

    @Test
    void notFoundIsTheJsonNullAndReadsBackAsKnownAbsentWithAnyWhitespace() {
        EntryCodec<Product> entries = entries(JacksonCodec.of(Product.class), 1);
        EntryCodec.Stored stored = entries.encode(Optional.empty(), FIFTY_MS);

        assertThat(new String(stored.bytes(), StandardCharsets.US_ASCII)).isEqualTo("null");
        assertThat(stored.ttlMillis()).isBetween(27_000L, 30_000L);
        assertThat(entries.read(stored.bytes())).isInstanceOf(Lookup.KnownAbsent.class);
        assertThat(entries.read(" null\n".getBytes(StandardCharsets.US_ASCII))).isInstanceOf(Lookup.KnownAbsent.class);
    }

    @Test
    void aValueWhoseJsonIsNullIsNotCachedSoItCannotPassForTheMarker() {
        CacheCodec<String> nullWriter = new CacheCodec<>() {
            @Override
            public byte[] encode(String value) {
                return " null ".getBytes(StandardCharsets.US_ASCII);
            }

            @Override
            public String decode(byte[] bytes) {
                return new String(bytes, StandardCharsets.UTF_8);
            }
        };
        assertThat(entries(nullWriter, 1).encode(Optional.of("real value"), FIFTY_MS)).isNull();
    }

    @Test
    void aForeignValueThatIsNotThisTypesJsonIsACountedMissThatKeepsItsBytes() {
        EntryCodec<Product> entries = entries(JacksonCodec.of(Product.class), 1);
        byte[] foreign = "<product id=42/>".getBytes(StandardCharsets.UTF_8);
        byte[] envelope = Envelope.value(1, 0, 1, "{\"id\":42}".getBytes(StandardCharsets.UTF_8), 1024).bytes();

        Lookup<Product> lookup = entries.read(foreign);
        assertThat(lookup).isInstanceOf(Lookup.Miss.class);
        // Its bytes go to the fill, which overwrites exactly them (acquire.lua), as for a corrupt envelope.
        assertThat(((Lookup.Miss<Product>) lookup).rejected()).isEqualTo(foreign);
        assertThat(entries.read(envelope)).isInstanceOf(Lookup.Miss.class);
        assertThat(decodeErrors()).isEqualTo(2);
    }

    @Test
    void xfetchRefreshesOnTheKeysRemainingLifeAndNeverWithoutIt() {
        EntryCodec<Product> entries = entries(JacksonCodec.of(Product.class), 1);
        byte[] json = entries.encode(Optional.of(PRODUCT), FIFTY_MS).bytes(); // δ = 50 ms, this instance's load
        assertThat(entries.needsTtl()).isTrue();

        // −δ·β·ln(U) ≥ 0 always: a key at the end of its life is refreshed on every read.
        assertThat(entries.read(json, Optional.of(Duration.ZERO)).refreshEarly()).isTrue();
        // A day of life left against δ = 50 ms: the chance is e^(−1 728 000), never.
        assertThat(entries.read(json, Optional.of(Duration.ofDays(1))).refreshEarly()).isFalse();
        // No PTTL (MGET, the fill script, a key without expiry): no early refresh.
        assertThat(entries.read(json, Optional.empty()).refreshEarly()).isFalse();
        assertThat(entries.read(PlainJson.NOT_FOUND, Optional.of(Duration.ZERO)).refreshEarly()).isTrue();
    }

    @Test
    void aPayloadTheCodecReadsAsNullIsACountedMissInEitherFormatNeverANullHit() {
        // Jackson reads a JSON null as null: an envelope around one was a Hit(null), and its answer() threw.
        byte[] json = "\"x\"".getBytes(StandardCharsets.UTF_8);
        CacheCodec<String> nullReader = new CacheCodec<>() {
            @Override
            public byte[] encode(String value) {
                return json;
            }

            @Override
            public String decode(byte[] bytes) {
                return null;
            }
        };
        assertThat(entries(nullReader, 1).read(json)).isInstanceOf(Lookup.Miss.class);
        EntryCodec<String> envelope = entries(nullReader, 1, CacheFormat.ENVELOPE);
        assertThat(envelope.read(envelope.encode(Optional.of("x"), FIFTY_MS).bytes())).isInstanceOf(Lookup.Miss.class);
        assertThat(decodeErrors()).isEqualTo(2);
    }

    @Test
    void withEarlyRefreshOffAHitNeedsNoTtl() {
        assertThat(entries(JacksonCodec.of(Product.class), 0).needsTtl()).isFalse();
    }
}
