package io.redkit.lab;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code lab hot-key} end to end on the lab's own redis-server, with short phases and few callers. It asserts on
 * counts the server keeps ({@code INFO commandstats}, keys) and on the shape of the report, never on a timing.
 */
class HotKeyLabIT {

    private static final String[] HOT_KEY_PHASES = {"redisOnly", "nearCache"};
    private static final String[] BIG_VALUE_PHASES = {"without", "with", "withPolicy", "withCompression"};

    @Test
    void theNearCacheSendsFewerGetsToRedisAndTheLargeValuePolicyKeepsTheBigValueOut() throws Exception {
        JsonNode json = LabRun.json("lab", "hot-key", "--json", "--duration", "1s", "--big-duration", "1s",
                "--warmup", "200ms", "--callers", "8", "--small-callers", "4", "--big-mb", "1",
                "--max-value-kb", "64");
        System.out.println("[figures] HotKeyLabIT hot key reads/s redis-only/near: "
                + json.at("/hotKey/redisOnly/readsPerSecond") + " / " + json.at("/hotKey/nearCache/readsPerSecond")
                + ", server CPU s " + json.at("/hotKey/redisOnly/serverCpuSeconds") + " / "
                + json.at("/hotKey/nearCache/serverCpuSeconds") + "; small reads p99 ms " + json.at(
                        "/bigValue/smallReadsP99Ms"));

        for (String phase : HOT_KEY_PHASES) {
            JsonNode p = json.at("/hotKey/" + phase);
            assertThat(p.at("/reads").asLong()).as(phase + ".reads; " + p).isPositive();
            assertThat(p.at("/errors").asLong()).as(phase + ".errors; " + p).isZero();
            assertThat(p.at("/readsPerSecond").asDouble()).as(phase + ".readsPerSecond").isPositive();
            assertThat(p.at("/p99Ms").isNumber()).as(phase + ".p99Ms").isTrue();
            assertThat(p.at("/serverCpuSeconds").isNumber()).as(phase + ".serverCpuSeconds").isTrue();
            assertThat(p.at("/serverCpuSeconds").asDouble()).as(phase + ".serverCpuSeconds").isGreaterThanOrEqualTo(0);
        }
        // Every redis-only read is one GET; near-cache hits send none (only a reload per entry per near TTL).
        long redisOnlyGets = json.at("/hotKey/redisOnly/redisGets").asLong();
        long nearGets = json.at("/hotKey/nearCache/redisGets").asLong();
        assertThat(redisOnlyGets).isGreaterThanOrEqualTo(json.at("/hotKey/redisOnly/reads").asLong());
        assertThat(nearGets).isLessThan(redisOnlyGets);
        assertThat(json.at("/hotKey/nearCache/nearHits").asLong()).isPositive();

        for (String phase : BIG_VALUE_PHASES) {
            assertThat(json.at("/bigValue/smallReadsP99Ms/" + phase).isNumber()).as("smallReadsP99Ms." + phase)
                    .isTrue();
            JsonNode p = json.at("/bigValue/phases/" + phase);
            assertThat(p.at("/smallReads").asLong()).as(phase + ".smallReads; " + p).isPositive();
            assertThat(p.at("/smallErrors").asLong()).as(phase + ".smallErrors; " + p).isZero();
            assertThat(p.at("/serverCpuSeconds").asDouble()).as(phase + ".serverCpuSeconds").isGreaterThanOrEqualTo(0);
        }
        assertThat(json.at("/bigValue/phases/without/bigReads").asLong()).isZero();
        for (String phase : new String[] {"with", "withPolicy", "withCompression"}) {
            assertThat(json.at("/bigValue/phases/" + phase + "/bigReads").asLong()).as(phase + ".bigReads")
                    .isPositive();
            assertThat(json.at("/bigValue/phases/" + phase + "/bigErrors").asLong()).as(phase + ".bigErrors")
                    .isZero();
        }
        assertThat(json.at("/bigValue/valueBytes").asLong()).isEqualTo(1 << 20);
        // Above the limit even deflated: never stored, so every big read loaded it from the loader.
        assertThat(json.at("/bigValue/policy/name").asText()).isEqualTo("SKIP");
        assertThat(json.at("/bigValue/policy/storedBytes").isNull()).as("policy.storedBytes").isTrue();
        assertThat(json.at("/bigValue/phases/withPolicy/loads").asLong())
                .isEqualTo(json.at("/bigValue/phases/withPolicy/bigReads").asLong());
        // Deflated below the value's size, stored once, read back from Redis after that.
        long compressed = json.at("/bigValue/compression/storedBytes").asLong();
        assertThat(compressed).isPositive().isLessThan(1 << 20);
        assertThat(json.at("/bigValue/phases/withCompression/loads").asLong()).isZero();
    }
}
