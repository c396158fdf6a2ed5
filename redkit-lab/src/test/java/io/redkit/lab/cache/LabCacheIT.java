package io.redkit.lab.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.redkit.lab.LabRun;

/** {@code lab stampede} and {@code lab pipeline} end to end, with the JSON fields of DESIGN §11. */
class LabCacheIT {

    @Test
    void stampedeLoadsOnceWithRedkitAndOncePerMissWithoutIt() throws Exception {
        JsonNode json = LabRun.json("lab", "stampede", "--json", "--callers", "100", "--instances", "4");
        assertThat(json.at("/callers").asInt()).isEqualTo(100);
        assertThat(json.at("/instances").asInt()).isEqualTo(4);
        // The seeds' plain cache-aside: every caller that read before the first SET landed loaded.
        assertThat(json.at("/loads/no_singleflight").asInt()).isGreaterThan(1);
        assertThat(json.at("/loads/singleflight").asInt()).isEqualTo(1);
        assertThat(json.at("/loads/cross_instance").asInt()).isEqualTo(1);
    }

    @Test
    void pipelineReportsEveryWayOfReadingTheKeys() throws Exception {
        JsonNode json = LabRun.json("lab", "pipeline", "--json", "--n", "200", "--repeat", "2");
        assertThat(json.at("/n").asInt()).isEqualTo(200);
        for (String field : new String[] {"sequential_ms", "pipelined_ms", "mget_ms", "cache_get_all_ms"}) {
            assertThat(json.at("/" + field).asDouble()).as(field).isPositive();
        }
    }
}
