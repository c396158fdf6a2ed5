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
}
