package io.redkit.lab.cache;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import io.redkit.Redkit;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.RedisCache;
import io.redkit.lab.DurationOption;
import io.redkit.lab.LabOptions;
import io.redkit.lab.Output;
import io.redkit.lab.Target;
import io.redkit.lab.bench.RoundRunner;
import io.redkit.lab.cache.BigValueRun.BigValue;

/**
 * {@code lab hot-key}: the seeds' "hot keys and big values". (a) One key read by many callers, from Redis alone and
 * then through the near cache: reads/s, latency, and what redis-server itself spent ({@code INFO cpu}) and was
 * asked ({@code INFO commandstats}). (b) One caller reading a big value in a loop beside small readers: the small
 * reads' p99 without it, with it, and with redkit-cache's large-value policy in front ({@link BigValueRun}).
 *
 * <p>JSON field names are camelCase ({@code hotKey.redisOnly.serverCpuSeconds}), as the issue that asked for this
 * lab names them, unlike the snake_case of the older labs.
 */
@Command(name = "hot-key", mixinStandardHelpOptions = true,
        description = "One hot key read from Redis alone and through the near cache (reads/s, p99, redis-server's"
                + " CPU); small reads beside a big value, raw and behind redkit-cache's large-value policy.")
public final class HotKeyLab implements Callable<Integer> {

    private static final String HOT = "hot";
    private static final long NEAR_SIZE = 10_000;
    private static final Duration NEAR_TTL = CacheConfig.DEFAULT_NEAR_CACHE_TTL;

    @Mixin
    LabOptions options;

    @Option(names = "--duration", paramLabel = "D", converter = DurationOption.class, defaultValue = "10s",
            description = "length of each hot-key phase (default ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--big-duration", paramLabel = "D", converter = DurationOption.class, defaultValue = "5s",
            description = "length of each of the four big-value phases (default ${DEFAULT-VALUE})")
    Duration bigDuration;

    @Option(names = "--warmup", paramLabel = "D", converter = DurationOption.class, defaultValue = "1s",
            description = "unmeasured reads before each phase (default ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(names = "--callers", description = "callers reading the hot key (default ${DEFAULT-VALUE})")
    int callers = 64;

    @Option(names = "--small-callers", description = "callers reading small keys beside the big reader"
            + " (default ${DEFAULT-VALUE})")
    int smallCallers = 16;

    @Option(names = "--big-mb", description = "size of the big value in MiB (default ${DEFAULT-VALUE})")
    int bigMb = 5;

    @Option(names = "--max-value-kb", description = "the large-value policy's limit in KiB (default"
            + " ${DEFAULT-VALUE}, redkit-cache's own)")
    int maxValueKb = CacheConfig.DEFAULT_MAX_VALUE_BYTES / 1024;

    @Spec
    CommandSpec spec;

    /** The report. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record Report(String redis, Settings settings, HotKey hotKey, BigValue bigValue) {
    }

    /** How the run was made. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record Settings(long durationMs, long bigDurationMs, long warmupMs, int callers, int smallCallers,
            int bigMb, int maxValueKb, long nearCacheSize, long nearCacheTtlMs) {
    }

    /** Part (a): the same cache without and with its near cache. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record HotKey(HotPhase redisOnly, HotPhase nearCache) {
    }

    /** One part (a) phase; {@code redisGets} is the server's count of GET commands over the phase. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record HotPhase(long reads, long errors, double readsPerSecond, double p50Ms, double p99Ms,
            long redisGets, long nearHits, double serverCpuSeconds, Double serverCpuSecondsPerMillionReads,
            Double labCpuSeconds, String firstError) {
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (callers < 1 || callers > 1024 || smallCallers < 1 || smallCallers > 1024 || bigMb < 1 || bigMb > 256
                || maxValueKb * 1024L <= CacheConfig.DEFAULT_COMPRESS_ABOVE || maxValueKb > 512 * 1024
                || duration.isZero() || bigDuration.isZero()) {
            err.println("need --callers and --small-callers 1..1024, --big-mb 1..256, --max-value-kb "
                    + (CacheConfig.DEFAULT_COMPRESS_ABOVE / 1024 + 1) + "..524288 (above the compression"
                    + " threshold) and durations above 0");
            return 2;
        }
        Report report;
        try (Target target = Target.of(options.redisUrl)) {
            HotKey hotKey = hotKey(target);
            BigValue bigValue = new BigValueRun(target, smallCallers, bigMb << 20, maxValueKb * 1024, warmup,
                    bigDuration).run();
            report = new Report(target.describe(), new Settings(duration.toMillis(), bigDuration.toMillis(),
                    warmup.toMillis(), callers, smallCallers, bigMb, maxValueKb, NEAR_SIZE, NEAR_TTL.toMillis()),
                    hotKey, bigValue);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            Output.json(out, report);
        } else {
            HotKeyTables.print(out, report);
        }
        out.flush();
        return 0;
    }

    /**
     * Redis alone is a {@code RedisCache} without its near cache, not plain GETs: then the two phases run the same
     * cache code (one GET and a decode per hit) and differ only in the near cache.
     */
    private HotKey hotKey(Target target) throws InterruptedException {
        String name = "hotkey-" + Long.toString(System.nanoTime(), 36);
        try (Redkit redkit = Redkit.connect(target.url()); RoundRunner runner = new RoundRunner(callers)) {
            HotPhase redisOnly;
            try (CacheAside<String, String> cache = cache(redkit, name).build()) {
                redisOnly = phase(target, runner, cache);
            }
            HotPhase nearCache;
            try (CacheAside<String, String> cache = cache(redkit, name).nearCache(NEAR_SIZE, NEAR_TTL).build()) {
                nearCache = phase(target, runner, cache);
            }
            return new HotKey(redisOnly, nearCache);
        }
    }

    private static RedisCache.Builder<String, String> cache(Redkit redkit, String name) {
        return RedisCache.<String, String>builder(redkit).name(name).valueType(String.class)
                .loader(id -> Optional.of("{\"id\":1,\"name\":\"the product everyone reads\",\"price\":4200}"));
    }

    private HotPhase phase(Target target, RoundRunner runner, CacheAside<String, String> cache)
            throws InterruptedException {
        cache.get(HOT).orElseThrow(); // loaded and stored once, before any phase: both phases only read it
        LabLoop reads = new LabLoop("cache.get", c -> cache.get(HOT).orElseThrow());
        Measured.warm(runner, reads, warmup);
        long nearHitsBefore = cache.stats().nearHits();
        Measured m = Measured.run(target, runner, reads, duration);
        return new HotPhase(m.calls(), m.errors(), m.callsPerSecond(), m.millisAt(50), m.millisAt(99),
                m.server().gets(), cache.stats().nearHits() - nearHitsBefore, m.serverCpuSeconds(),
                m.serverCpuSecondsPerMillion(), m.labCpuSeconds(), m.firstError());
    }
}
