package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RedisBenchmarkToolTest {

    @Test
    void readsThroughputAndPercentilesFromTheCsvLine() {
        String csv = """
                "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
                "GET","162601.62","0.058","0.016","0.055","0.079","0.135","0.359"
                """;
        RedisBenchmarkTool.Result r = RedisBenchmarkTool.parse(csv, "redis-benchmark -t get");
        assertThat(r.opsPerS()).isEqualTo(162601.62);
        assertThat(r.p50Us()).isEqualTo(55.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.p99Us()).isEqualTo(135.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void readsARawCommandTest() {
        String csv = "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\","
                + "\"p99_latency_ms\",\"max_latency_ms\"\n"
                + "\"EVALSHA abc 1 key:__rand_int__\",\"41000.00\",\"1.5\",\"0.1\",\"1.4\",\"2.0\",\"2.5\",\"9.0\"\n";
        assertThat(RedisBenchmarkTool.parse(csv, "c").opsPerS()).isEqualTo(41000.0);
    }

    @Test
    void theStepsOfOneOpCombineAsTheirHarmonicSum() {
        RedisBenchmarkTool.Result acquire = new RedisBenchmarkTool.Result(150_000, 300, 700, "acquire");
        RedisBenchmarkTool.Result release = new RedisBenchmarkTool.Result(100_000, 200, 500, "release");
        RedisBenchmarkTool.Result cycle = RedisBenchmarkTool.combine(java.util.List.of(acquire, release));
        // 1/150k + 1/100k seconds per cycle: 60k cycles/s, not the 125k an average of the rates would claim.
        assertThat(cycle.opsPerS()).isEqualTo(60_000, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(cycle.p50Us()).isEqualTo(500);
        assertThat(cycle.p99Us()).isEqualTo(1200);
        assertThat(cycle.command()).isEqualTo("acquire + release");
        assertThat(RedisBenchmarkTool.combine(java.util.List.of(acquire))).isEqualTo(acquire);
    }

    @Test
    void failsWhenThereIsNoResultLine() {
        assertThatThrownBy(() -> RedisBenchmarkTool.parse("Could not connect to Redis at 127.0.0.1:1\n", "c"))
                .hasMessageContaining("printed no result");
    }
}
