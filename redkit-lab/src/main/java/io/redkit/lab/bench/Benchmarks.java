package io.redkit.lab.bench;

import java.util.List;
import java.util.Optional;

import io.redkit.lab.bench.cache.CacheBenchmark;
import io.redkit.lab.bench.client.ClientBenchmark;
import io.redkit.lab.bench.limit.LimitBenchmark;
import io.redkit.lab.bench.lock.LockBenchmark;
import io.redkit.lab.bench.session.SessionBenchmark;
import io.redkit.lab.bench.stream.StreamBenchmark;

/** The registry of benchmarks: {@code bench NAME} looks them up here and {@code bench all} runs them in order. */
public final class Benchmarks {

    private Benchmarks() {
    }

    /** Every registered benchmark; a new one (lock, cache, …) is one more entry. */
    public static List<Benchmark> all() {
        return List.of(new ClientBenchmark(), new LockBenchmark(), new CacheBenchmark(), new LimitBenchmark(),
                new SessionBenchmark(), new StreamBenchmark());
    }

    /** The benchmark called {@code name}. */
    public static Optional<Benchmark> named(String name) {
        return all().stream().filter(b -> b.name().equals(name)).findFirst();
    }

    /** The registered names, for help and errors. */
    public static List<String> names() {
        return all().stream().map(Benchmark::name).toList();
    }
}
