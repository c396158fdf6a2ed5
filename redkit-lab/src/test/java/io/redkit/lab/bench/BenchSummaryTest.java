package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The README summary names each missed aim with the bound it missed: a floor, a ceiling or a strict bound. */
class BenchSummaryTest {

    @Test
    void aMissedAimIsShownAgainstItsOwnKindOfBound() throws Exception {
        JsonNode report = new ObjectMapper().readTree("""
                {"bench": "cache", "started_at": "2026-12-07T02:00:00Z", "ratios": {"hit:redkit/spring@64": 1.2},
                 "aims": [
                  {"ratio": "hit:redkit/spring@64", "value": 0.5, "at_least": 1.0, "at_most": null, "below": null,
                   "met": false},
                  {"ratio": "alloc hit:redkit/spring@64", "value": 1.6, "at_least": null, "at_most": 1.5,
                   "below": null, "met": false},
                  {"ratio": "near_invalidation:redkit-near-tracking@1 p99_us", "value": 3985.4, "at_least": null,
                   "at_most": 1000.0, "below": null, "met": false},
                  {"ratio": "hit:redkit-near-tracking@1 p50_us", "value": 1.2, "at_least": null, "at_most": null,
                   "below": 1.0, "met": false}]}
                """);

        assertThat(BenchSummary.render(List.of(report))).contains("0 of 4 (missed: hit:redkit/spring@64 0.50 < 1.0;"
                + " alloc hit:redkit/spring@64 1.60 > 1.5; near_invalidation:redkit-near-tracking@1 p99_us 3985.40 >"
                + " 1000.0; hit:redkit-near-tracking@1 p50_us 1.20 ≥ 1.0)");
    }
}
