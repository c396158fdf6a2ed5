package io.redkit.lab.bench.stream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.HdrHistogram.Histogram;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;

/**
 * End-to-end latency, from the producer's stamp to the handler's end, at a steady {@value #RATE} messages/s
 * (open loop: a message is sent on schedule whether or not the previous one was handled), after a warm-up; one
 * consumer per contender, each on a fresh stream. Well below every contender's throughput, so it measures the
 * path of one message, not a queue.
 */
final class EndToEnd {

    static final int RATE = 1_000;
    static final int MESSAGES = 2_000;
    private static final int WARM_UP = 2_000;

    private EndToEnd() {
    }

    /** The latency figures of one contender. */
    record Figures(long handled, double p50Us, double p99Us, double maxUs) {
    }

    /** The JSON of the extra: {@code end_to_end}. */
    record Report(int ratePerS, int messages, Map<String, Figures> impls) {
    }

    static Benchmark.Extra run(BenchEnv env, List<Supplier<StreamContender>> contenders) throws Exception {
        Map<String, Figures> figures = new LinkedHashMap<>();
        List<List<String>> rows = new ArrayList<>();
        for (Supplier<StreamContender> make : contenders) {
            StreamContender c = make.get();
            try {
                c.setup(env);
                for (int i = 0; i < WARM_UP; i++) {
                    c.send();
                    if (i % 256 == 255) {
                        c.awaitBacklog(0);
                    }
                }
                c.awaitBacklog(0);
                c.recordLatency();
                long period = TimeUnit.SECONDS.toNanos(1) / RATE;
                long start = System.nanoTime();
                for (int i = 0; i < MESSAGES; i++) {
                    LockSupport.parkNanos(start + i * period - System.nanoTime());
                    c.send();
                }
                c.awaitBacklog(0);
                Histogram h = c.latency();
                Figures f = new Figures(h.getTotalCount(), us(h.getValueAtPercentile(50)),
                        us(h.getValueAtPercentile(99)), us(h.getMaxValue()));
                figures.put(c.name(), f);
                rows.add(List.of(c.name(), String.valueOf(f.handled()), format(f.p50Us()), format(f.p99Us()),
                        format(f.maxUs())));
            } finally {
                c.close();
            }
        }
        return new Benchmark.Extra("end_to_end", "end-to-end latency at a steady " + RATE + " messages/s ("
                + MESSAGES + " messages after " + WARM_UP + " of warm-up; producer's stamp to handler done)",
                List.of("impl", "handled", "p50 µs", "p99 µs", "max µs"), rows, new Report(RATE, MESSAGES, figures));
    }

    private static double us(long nanos) {
        return Math.round(nanos / 100.0) / 10.0;
    }

    private static String format(double us) {
        return String.format(Locale.ROOT, us < 100 ? "%.1f" : "%,.0f", us);
    }
}
