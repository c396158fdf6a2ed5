package io.redkit.stream.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StreamIdsTest {

    @Test
    void theIdBelowOneWithASequenceLowersTheSequence() {
        assertThat(StreamIds.previous("1700000000000-5")).isEqualTo("1700000000000-4");
    }

    @Test
    void theIdBelowTheFirstOfAMillisecondIsTheLastOfTheOneBefore() {
        assertThat(StreamIds.previous("1700000000000-0")).isEqualTo("1699999999999-18446744073709551615");
    }

    @Test
    void nothingIsBelowTheSmallestId() {
        assertThat(StreamIds.previous("0-0")).isEqualTo("0-0");
        assertThat(StreamIds.previous("0-1")).isEqualTo("0-0");
    }
}
