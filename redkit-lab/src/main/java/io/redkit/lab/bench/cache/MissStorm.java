package io.redkit.lab.bench.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;

/**
 * The miss storm of {@code bench cache}: for each contender, {@value #CALLERS} callers released at once read one
 * key nobody has cached, through the contender's way of filling a miss, from a source whose load takes
 * {@value #LOAD_MS} ms and is counted. The count is reported as it is: redkit should load once, the naive
 * get / load / set of the peers loads about once per caller.
 */
final class MissStorm {

    static final int CALLERS = 64;
    static final long LOAD_MS = 50;
    private static final long TIMEOUT_S = 60;

    /** The JSON of the {@code miss_storm} field: {@code loads} maps impl to source loads. */
    record Report(int callers, long loaderMs, Map<String, Integer> loads, Map<String, Integer> answered,
            Map<String, Long> wallMs, Map<String, String> fill) {
    }

    private MissStorm() {
    }

    /** Runs the storm against each contender (set up here, closed after) and returns the report as an extra. */
    static Benchmark.Extra run(BenchEnv env, List<CacheContender> contenders, Map<String, String> fill)
            throws Exception {
        int id = 1_000_000 + ThreadLocalRandom.current().nextInt(1_000_000);
        Map<String, Integer> loads = new LinkedHashMap<>();
        Map<String, Integer> answered = new LinkedHashMap<>();
        Map<String, Long> wall = new LinkedHashMap<>();
        List<List<String>> rows = new ArrayList<>();
        for (CacheContender c : contenders) {
            try (c) {
                c.setup(env);
                c.source.delayMs = LOAD_MS;
                int before = c.source.loads();
                long start = System.nanoTime();
                int ok = storm(c, id);
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                int n = c.source.loads() - before;
                loads.put(c.name(), n);
                answered.put(c.name(), ok);
                wall.put(c.name(), ms);
                rows.add(List.of(c.name(), String.valueOf(n), ok + "/" + CALLERS, String.format(Locale.ROOT, "%,d",
                        ms), fill.getOrDefault(c.name(), "")));
            }
        }
        String title = String.format(Locale.ROOT, "miss storm: %d callers miss one key at once, a load takes %d ms",
                CALLERS, LOAD_MS);
        return new Benchmark.Extra("miss_storm", title, List.of("impl", "loads", "answered", "wall ms",
                "how a miss is filled"), rows, new Report(CALLERS, LOAD_MS, loads, answered, wall, fill));
    }

    /** Releases every caller at once on key {@code id}; returns how many got the right product. */
    private static int storm(CacheContender c, int id) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS, r -> {
            Thread t = new Thread(r, "bench-storm");
            t.setDaemon(true);
            return t;
        });
        try {
            CountDownLatch ready = new CountDownLatch(CALLERS);
            CountDownLatch go = new CountDownLatch(1);
            Integer key = id;
            List<Future<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                calls.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    Product p = c.readThrough(key);
                    return p != null && p.id() == id;
                }));
            }
            ready.await();
            go.countDown();
            int ok = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
            for (Future<Boolean> f : calls) {
                try {
                    ok += f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS) ? 1 : 0;
                } catch (TimeoutException e) {
                    throw new IllegalStateException(c.name() + ": miss storm did not finish in " + TIMEOUT_S + " s");
                } catch (java.util.concurrent.ExecutionException e) {
                    // a failed caller is not an answer; the load count stands
                }
            }
            return ok;
        } finally {
            pool.shutdownNow();
        }
    }
}
