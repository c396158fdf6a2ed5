package io.redkit.lab.bench.limit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.redkit.lab.bench.Benchmark;

/**
 * The {@code over_admission} extra of {@code bench limit}: for each contender and caller count on the hot key,
 * the decisions made, those allowed, what its limit permits over the same stretches (rounds and warm-ups), and
 * the allowed decisions beyond that.
 */
final class OverAdmission {

    /** One row of the JSON. */
    record Row(String op, int callers, String impl, long stretches, long decisions, long allowed, long permitted,
            long over, String rule) {
    }

    private OverAdmission() {
    }

    static Benchmark.Extra of(Scenario scenario, List<LimitContender> contenders) {
        List<Row> json = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        for (LimitContender c : contenders) {
            Admissions a = c.admissions();
            for (Admissions.Total t : a.totals()) {
                json.add(new Row(scenario.op(), t.callers(), c.name(), t.stretches(), t.decisions(), t.allowed(),
                        t.permitted(), t.over(), a.rule().describe()));
            }
        }
        json.sort((x, y) -> x.callers() != y.callers() ? Integer.compare(x.callers(), y.callers()) : 0);
        for (Row r : json) {
            rows.add(List.of(String.valueOf(r.callers()), r.impl(), num(r.decisions()), num(r.allowed()),
                    num(r.permitted()), num(r.over()), r.rule()));
        }
        String title = String.format(Locale.ROOT, "over-admission on the hot key (%,d/s): allowed decisions vs what"
                + " each limit permits over the same stretches of calls (rounds and warm-ups)", scenario.perSecond());
        return new Benchmark.Extra("over_admission", title, List.of("callers", "impl", "decisions", "allowed",
                "permitted", "over", "what the limit permits"), rows, json);
    }

    private static String num(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
