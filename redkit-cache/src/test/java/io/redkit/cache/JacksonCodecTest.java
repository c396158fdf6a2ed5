package io.redkit.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;

import org.junit.jupiter.api.Test;

class JacksonCodecTest {

    record Stamped(String name, Instant at, LocalDate day) {
    }

    @Test
    void theDefaultCodecCarriesJavaTimeValues() throws Exception {
        JacksonCodec<Stamped> codec = JacksonCodec.of(Stamped.class);
        Stamped value = new Stamped("a", Instant.parse("2026-12-03T10:15:30.123456Z"), LocalDate.of(2026, 12, 3));

        assertThat(codec.decode(codec.encode(value))).isEqualTo(value);
    }

    @Test
    void aSliceIsReadInPlaceAndTheDefaultMethodCopiesItForACodecWithoutOne() throws Exception {
        JacksonCodec<Stamped> jackson = JacksonCodec.of(Stamped.class);
        Stamped value = new Stamped("b", Instant.parse("2026-12-07T08:00:00Z"), LocalDate.of(2026, 12, 7));
        byte[] json = jackson.encode(value);
        byte[] framed = new byte[json.length + 7];
        java.util.Arrays.fill(framed, (byte) '{'); // not JSON: a reader that strays past the slice fails
        System.arraycopy(json, 0, framed, 5, json.length);
        CacheCodec<Stamped> wholeArraysOnly = new CacheCodec<>() {
            @Override
            public byte[] encode(Stamped v) throws Exception {
                return jackson.encode(v);
            }

            @Override
            public Stamped decode(byte[] bytes) throws Exception {
                return jackson.decode(bytes);
            }
        };

        assertThat(jackson.decode(framed, 5, json.length)).isEqualTo(value);
        assertThat(wholeArraysOnly.decode(framed, 5, json.length)).isEqualTo(value);
        assertThat(wholeArraysOnly.decode(json, 0, json.length)).isEqualTo(value);
    }
}
