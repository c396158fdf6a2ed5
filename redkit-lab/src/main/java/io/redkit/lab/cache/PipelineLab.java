package io.redkit.lab.cache;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

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
 * {@code lab pipeline}: reading N keys one round trip at a time, all on the wire before the first reply
 * (pipelined), in one MGET, and through {@code CacheAside.getAll} (one MGET). Round trips, not Redis, are the cost.
 */
@Command(name = "pipeline", mixinStandardHelpOptions = true,
        description = "Times N sequential GETs against a pipeline, one MGET and CacheAside.getAll.")
public final class PipelineLab implements Callable<Integer> {

    @Mixin
    LabOptions options;

    @Option(names = "--n", description = "keys to read (default ${DEFAULT-VALUE})")
    int n = 1000;

    @Option(names = "--repeat", description = "runs of each; the fastest counts (default ${DEFAULT-VALUE})")
    int repeat = 5;

    @Spec
    CommandSpec spec;

    /** The report: DESIGN §11 fields plus the cache's batch read. */
    public record Report(String target, int n, double sequentialMs, double pipelinedMs, double mgetMs,
            double cacheGetAllMs, double sequentialOverPipelined) {
    }

    @Override
    public Integer call() {
        if (n < 1 || repeat < 1) {
            throw new IllegalArgumentException("--n and --repeat must be ≥ 1");
        }
        Report report;
        try (Target target = Target.of(options.redisUrl); Redkit redkit = Redkit.connect(target.url())) {
            report = measure(target.describe(), redkit);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            Output.json(out, report);
        } else {
            Output.table(out, "lab pipeline — " + report.target() + ", " + n + " keys (fastest of " + repeat + ")",
                    new String[] {"how", "ms"}, new String[][] {
                        {"sequential GETs (one round trip each)", fmt(report.sequentialMs())},
                        {"pipelined GETs (async, then wait)", fmt(report.pipelinedMs())},
                        {"one MGET", fmt(report.mgetMs())},
                        {"CacheAside.getAll (all hits)", fmt(report.cacheGetAllMs())},
                    });
            out.printf("sequential / pipelined: %.1f×%n", report.sequentialOverPipelined());
        }
        out.flush();
        return 0;
    }

    private Report measure(String target, Redkit redkit) {
        RedisOps redis = redkit.commands();
        String name = "pipeline" + System.nanoTime();
        KeySchema schema = KeySchema.of("lab." + name);
        List<String> keys = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(schema.key(String.valueOf(i)));
            ids.add(String.valueOf(i));
            redis.setString(keys.get(i), "value-" + i, Duration.ofMinutes(5));
        }
        CacheAside<String, String> cache = RedisCache.<String, String>builder(redkit).name(name)
                .valueType(String.class).ttl(Duration.ofMinutes(5)).loader(id -> Optional.of("value-" + id))
                .batchLoader(batch -> Map.of()).build();
        try {
            cache.getAll(ids); // fills it once: the timed runs are all hits
            double sequential = fastest(() -> keys.forEach(redis::get));
            double pipelined = fastest(() -> {
                List<CompletableFuture<Optional<byte[]>>> replies = new ArrayList<>(n);
                keys.forEach(k -> replies.add(redis.getAsync(k)));
                replies.forEach(CompletableFuture::join);
            });
            double mget = fastest(() -> redis.mget(keys));
            double getAll = fastest(() -> cache.getAll(ids));
            redis.unlink(keys.toArray(String[]::new));
            return new Report(target, n, sequential, pipelined, mget, getAll, sequential / pipelined);
        } finally {
            cache.close();
        }
    }

    private double fastest(Runnable run) {
        run.run(); // warm-up
        long best = Long.MAX_VALUE;
        for (int i = 0; i < repeat; i++) {
            long start = System.nanoTime();
            run.run();
            best = Math.min(best, System.nanoTime() - start);
        }
        return Math.round(best / 1e4) / 100.0;
    }

    private static String fmt(double ms) {
        return String.format("%.2f", ms);
    }
}
