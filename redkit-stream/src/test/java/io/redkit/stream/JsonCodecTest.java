package io.redkit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;

import org.junit.jupiter.api.Test;

class JsonCodecTest {

    record Stamped(String name, Instant at, LocalDate day) {
    }

    @Test
    void theDefaultCodecCarriesJavaTimeValues() throws Exception {
        JsonCodec<Stamped> codec = JsonCodec.of(Stamped.class);
        Stamped value = new Stamped("a", Instant.parse("2026-12-03T10:15:30.123456Z"), LocalDate.of(2026, 12, 3));

        assertThat(codec.decode(codec.encode(value))).isEqualTo(value);
    }
}
