package io.redkit.lab.bench.stream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;

/**
 * The issue's own measurement: {@value #MESSAGES} entries added before the consumer starts, then one consumer
 * drains them; messages/s from the first handled to the last. Nothing else runs meanwhile, so this is each
 * consumer's own speed, where the timed rounds share two cores between producer and consumer. Each contender first
 * drains {@value #WARM_UP} entries on an instance of its own, unmeasured, so that none is timed while compiling.
 */
final class Drain {

    static final int MESSAGES = 50_000;
    private static final int WARM_UP = 20_000;
    private static final long TIMEOUT_NANOS = TimeUnit.MINUTES.toNanos(2);

    private Drain() {
    }

    /** The JSON of the extra: {@code drain}. */
    record Report(int messages, Map<String, Double> msgPerS, Map<String, Double> ratios) {
    }

    static Benchmark.Extra run(BenchEnv env, List<Supplier<StreamContender>> contenders) throws Exception {
        Map<String, Double> rates = new LinkedHashMap<>();
        for (Supplier<StreamContender> make : contenders) {
            drain(env, make.get(), WARM_UP);
            StreamContender c = make.get();
            long handled = drain(env, c, MESSAGES);
            rates.put(c.name(), handled < 2 ? 0 : Math.round((handled - 1) * 1e10 / c.handlingNanos()) / 10.0);
        }
        return report(rates);
    }

    /** Adds {@code n} entries, starts the consumer, waits until it handled them (two minutes at most). */
    private static long drain(BenchEnv env, StreamContender c, int n) throws Exception {
        try {
            c.prefill(env, n);
            c.setup(env);
            long end = System.nanoTime() + TIMEOUT_NANOS;
            while (c.handledCount() < n && System.nanoTime() < end) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            return c.handledCount();
        } finally {
            c.close();
        }
    }

    private static Benchmark.Extra report(Map<String, Double> rates) {
        String subject = rates.isEmpty() ? "" : rates.keySet().iterator().next();
        Map<String, Double> ratios = new LinkedHashMap<>();
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<String, Double> e : rates.entrySet()) {
            double ratio = e.getValue() > 0 ? rates.get(subject) / e.getValue() : 0;
            if (!e.getKey().equals(subject)) {
                ratios.put(subject + "/" + e.getKey(), Math.round(ratio * 1000) / 1000.0);
            }
            rows.add(List.of(e.getKey(), String.format(Locale.ROOT, "%,.0f", e.getValue()),
                    String.format(Locale.ROOT, "%.2f×", ratio)));
        }
        return new Benchmark.Extra("drain", "drain: " + String.format(Locale.ROOT, "%,d", MESSAGES) + " entries added"
                + " first, then one consumer empties the stream (the consumer alone, as the issue measured it)",
                List.of("impl", "msg/s", subject + "/this"), rows, new Report(MESSAGES, rates, ratios));
    }
}
