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

/** A benchmark's extras are top-level JSON fields and a table in the Markdown; without extras nothing changes. */
class BenchExtrasTest {

    @Test
    void extrasBecomeTopLevelFieldsAndAMarkdownTable() throws Exception {
        Benchmark.Extra storm = new Benchmark.Extra("miss_storm", "miss storm", List.of("impl", "loads", "how"),
                List.of(List.of("redkit", "1", "single-flight"), List.of("naive", "64", "get | load")),
                Map.of("loads", Map.of("redkit", 1)));
        BenchReport report = report(List.of(storm));

        JsonNode json = json(report);
        assertThat(json.path("miss_storm").path("loads").path("redkit").asInt()).isEqualTo(1);
        assertThat(json.has("extras")).isFalse();
        String md = BenchTables.markdown(report, null);
        assertThat(md).contains("**miss storm**", "| impl | loads | how |", "|---|---:|---|",
                "| naive | 64 | get \\| load |");
    }

    @Test
    void withoutExtrasTheReportIsAsBefore() throws Exception {
        BenchReport report = report(null);
        JsonNode json = json(report);
        assertThat(json.has("extras")).isFalse();
        assertThat(json.has("extra_fields")).isFalse();
        assertThat(json.has("miss_storm")).isFalse();
        assertThat(BenchTables.markdown(report, null)).doesNotContain("miss storm");
    }

    private static BenchReport report(List<Benchmark.Extra> extras) {
        return new BenchReport("cache", "d", "c", "t", "now", 1, new BenchReport.Settings(List.of(1), 1, 1, 0, "x"),
                new BenchReport.Machine(2, "java", "0", "0"), List.of("hit"), List.of(), Map.of(), Map.of(), List.of(),
                new BenchReport.CeilingReport(false, "redis-benchmark", "none", List.of()), Map.of(), extras);
    }

    private static JsonNode json(BenchReport report) throws Exception {
        StringWriter text = new StringWriter();
        Output.json(new PrintWriter(text), report);
        return new ObjectMapper().readTree(text.toString());
    }
}
