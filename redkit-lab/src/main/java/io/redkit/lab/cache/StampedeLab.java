package io.redkit.lab.cache;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.Redkit;
import io.redkit.cache.CacheAside;
import io.redkit.cache.RedisCache;
import io.redkit.lab.LabOptions;
import io.redkit.lab.Output;
import io.redkit.lab.Target;

/**
 * {@code lab stampede}: a hot key expires under many callers. The seeds' plain cache-aside (GET, miss → load → SET)
 * loads once per caller that missed; redkit loads once per key within an instance, and once in all across
 * instances.
 */
@Command(name = "stampede", mixinStandardHelpOptions = true,
        description = "Counts source loads when one hot key is missed by many callers at once.")
public final class StampedeLab implements Callable<Integer> {

    @Mixin
    LabOptions options;

    @Option(names = "--callers", description = "concurrent callers (default ${DEFAULT-VALUE})")
    int callers = 200;

    @Option(names = "--instances", description = "separate Redkit clients for the cross-instance run"
            + " (default ${DEFAULT-VALUE})")
    int instances = 4;

    @Option(names = "--load-ms", description = "how long one source load takes (default ${DEFAULT-VALUE})")
    int loadMillis = 100;

    @Spec
    CommandSpec spec;

    /** The report: DESIGN §11 fields. */
    public record Report(String target, int callers, int instances, int loadMs, Loads loads) {
    }

    /** Source loads counted in each run. */
    public record Loads(int noSingleflight, int singleflight, int crossInstance) {
    }

    @Override
    public Integer call() {
        if (callers < 1 || instances < 1 || loadMillis < 0) {
            throw new IllegalArgumentException("--callers and --instances must be ≥ 1 and --load-ms ≥ 0");
        }
        Report report;
        try (Target target = Target.of(options.redisUrl)) {
            report = new Report(target.describe(), callers, instances, loadMillis,
                    new Loads(naive(target), singleInstance(target), crossInstance(target)));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            Output.json(out, report);
        } else {
            Output.table(out, "lab stampede — " + report.target() + ", " + callers + " callers miss one key, a load"
                    + " takes " + loadMillis + " ms", new String[] {"cache-aside", "source loads"}, new String[][] {
                        {"plain GET / load / SET (the seeds')", String.valueOf(report.loads().noSingleflight())},
                        {"redkit, one instance (single-flight)", String.valueOf(report.loads().singleflight())},
                        {"redkit, " + instances + " instances (fill lease)",
                            String.valueOf(report.loads().crossInstance())},
                    });
        }
        out.flush();
        return 0;
    }

    private int naive(Target target) {
        AtomicInteger loads = new AtomicInteger();
        String key = KeySchema.of("lab.stampede").key("naive", String.valueOf(System.nanoTime()));
        try (Redkit redkit = Redkit.connect(target.url())) {
            RedisOps redis = redkit.commands();
            together(callers, i -> {
                if (redis.getString(key).isEmpty()) {
                    redis.setString(key, load(loads), Duration.ofMinutes(1));
                }
            });
        }
        return loads.get();
    }

    private int singleInstance(Target target) {
        AtomicInteger loads = new AtomicInteger();
        String name = "stampede1-" + System.nanoTime();
        try (Redkit redkit = Redkit.connect(target.url())) {
            CacheAside<String, String> cache = cache(redkit, name, loads);
            together(callers, i -> cache.get("hot"));
            cache.close();
        }
        return loads.get();
    }

    private int crossInstance(Target target) {
        AtomicInteger loads = new AtomicInteger();
        String name = "stampedeN-" + System.nanoTime();
        List<Redkit> clients = new ArrayList<>();
        List<CacheAside<String, String>> caches = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                Redkit redkit = Redkit.connect(target.url());
                clients.add(redkit);
                caches.add(cache(redkit, name, loads));
            }
            together(callers, i -> caches.get(i % instances).get("hot"));
        } finally {
            caches.forEach(CacheAside::close);
            clients.forEach(Redkit::close);
        }
        return loads.get();
    }

    private CacheAside<String, String> cache(Redkit redkit, String name, AtomicInteger loads) {
        return RedisCache.<String, String>builder(redkit).name(name).valueType(String.class)
                .ttl(Duration.ofMinutes(1)).loader(id -> Optional.of(load(loads))).build();
    }

    private String load(AtomicInteger loads) {
        loads.incrementAndGet();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(loadMillis)); // the database query
        return "price=4200";
    }

    /** Runs {@code work} on {@code n} threads released together, and waits for all of them. */
    static void together(int n, IntConsumer work) {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    work.accept(index);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "caller-" + i);
            t.start();
            threads.add(t);
        }
        start.countDown();
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
