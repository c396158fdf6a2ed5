package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.Output;
import io.redkit.lab.bench.BenchReport.AimResult;
import io.redkit.lab.bench.BenchReport.Row;

/** Bytes and CPU per op stand in every row of the JSON and the table, redkit's beside raw's, with their aims. */
class BenchCostsReportTest {

    private static final BenchReport REPORT = new BenchReport("client", "d", "c", "t", "now", 1,
            new BenchReport.Settings(List.of(64), 1, 1, 0, "x"), new BenchReport.Machine(2, "java", "0", "0"),
            List.of("get"), List.of(row("redkit", 1_234.0, 12.5), row("lettuce-sync", 820.0, 9.87)),
            Map.of("redkit/lettuce-sync@64", 0.97), Map.of("redkit/lettuce-sync@64", 1.505),
            List.of(new AimResult("redkit/lettuce-sync@64", 0.97, 0.95, null, true),
                    new AimResult("alloc redkit/lettuce-sync@64", 1.505, null, 1.5, false)),
            new BenchReport.CeilingReport(false, "redis-benchmark", "none", List.of()), Map.of(), null);

    @Test
    void everyRowOfTheJsonCarriesBytesAndCpuPerOpAndTheAllocationRatios() throws Exception {
        JsonNode json = json(REPORT);
        JsonNode redkit = json.path("rows").get(0);
        assertThat(redkit.path("alloc_bytes_per_op").asDouble()).isEqualTo(1_234.0);
        assertThat(redkit.path("cpu_us_per_op").asDouble()).isEqualTo(12.5);
        assertThat(json.path("alloc_ratios").path("redkit/lettuce-sync@64").asDouble()).isEqualTo(1.505);
        JsonNode alloc = json.path("aims").get(1);
        assertThat(alloc.path("at_most").asDouble()).isEqualTo(1.5);
        assertThat(alloc.path("met").asBoolean()).isFalse();
    }

    @Test
    void theTableShowsBytesAndCpuPerOpInEveryRowAndTheAllocationAimAsACeiling() {
        String md = BenchTables.markdown(REPORT, null);
        assertThat(md).contains("| B/op | CPU µs/op | redkit/this |",
                "| 1,234 | 12.5 | 1.00× |", "| 820 | 9.87 |",
                "- aim redkit/lettuce-sync@64 ≥ 0.95: 0.970 (met)",
                "- aim alloc redkit/lettuce-sync@64 ≤ 1.50: 1.505 (NOT met)");
    }

    private static Row row(String impl, Double bytes, Double cpu) {
        return new Row(impl, "get", 64, 100, 100, 100, List.of(100.0), 10, 20, 30, 40, 100, 0, null, bytes, cpu);
    }

    private static JsonNode json(BenchReport report) throws Exception {
        StringWriter text = new StringWriter();
        Output.json(new PrintWriter(text), report);
        return new ObjectMapper().readTree(text.toString());
    }
}
