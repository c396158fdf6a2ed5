package io.redkit.lab.cache;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import io.redkit.Idempotency;
import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.Redkit;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheCodec;
import io.redkit.cache.CacheConfig;
import io.redkit.cache.LargeValuePolicy;
import io.redkit.cache.RedisCache;
import io.redkit.lab.Target;
import io.redkit.lab.bench.RoundRunner;

/**
 * Part (b) of {@code lab hot-key}: small readers beside one caller reading a big value in a loop. The small readers
 * share one Redkit client (one connection, as an application's would); the big reader has a client of its own, so
 * that what the small reads lose is the server's and the machine's time, not a place in the big reader's queue on a
 * shared connection (which would add head-of-line blocking on top).
 */
final class BigValueRun {

    static final int SMALL_KEYS = 1000;
    private static final int SMALL_BYTES = 100;
    private static final Duration KEY_TTL = Duration.ofMinutes(10);
    /** The value's bytes as they are: the raw reads and the cache store the same bytes, so they compare. */
    private static final CacheCodec<byte[]> AS_IS = new CacheCodec<>() {
        @Override public byte[] encode(byte[] value) { return value; }
        @Override public byte[] decode(byte[] bytes) { return bytes; }
    };

    /** What part (b) reports. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record BigValue(long valueBytes, int smallKeys, int smallCallers, SmallReadsP99 smallReadsP99Ms,
            Phases phases, Policy policy, Compression compression) {
    }

    /** The small reads' p99 in each phase (ms). */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record SmallReadsP99(double without, double with, double withPolicy, double withCompression) {
    }

    /** Each phase in full. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record Phases(Phase without, Phase with, Phase withPolicy, Phase withCompression) {
    }

    /** One phase: the small reads, the big reads, the cache's loads (null without a cache), the server's CPU. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record Phase(long smallReads, long smallErrors, double smallReadsPerSecond, double smallP50Ms,
            double smallP99Ms, long bigReads, long bigErrors, double bigReadsPerSecond, Long loads,
            double serverCpuSeconds, Double labCpuSeconds, String firstError) {
    }

    /** The size limit in front of the big reads, and what it did: {@code storedBytes} null = never stored. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record Policy(String name, int maxValueBytes, int compressAboveBytes, Long storedBytes, String what) {
    }

    /** Compression alone (a limit the deflated value fits under): what Redis holds and hands out per read. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record Compression(int compressAboveBytes, int maxValueBytes, Long storedBytes, String what) {
    }

    /** The small readers: their threads and their loop. */
    private record Readers(RoundRunner runner, LabLoop loop) {
    }

    private record Limited(Phase phase, Policy policy) {
    }

    private record Compressed(Phase phase, Compression compression) {
    }

    private final Target target;
    private final int smallCallers;
    private final int valueBytes;
    private final int maxValueBytes;
    private final Duration warmup;
    private final Duration duration;
    private final String run = Long.toString(System.nanoTime(), 36);

    BigValueRun(Target target, int smallCallers, int valueBytes, int maxValueBytes, Duration warmup,
            Duration duration) {
        this.target = target;
        this.smallCallers = smallCallers;
        this.valueBytes = valueBytes;
        this.maxValueBytes = maxValueBytes;
        this.warmup = warmup;
        this.duration = duration;
    }

    BigValue run() throws InterruptedException {
        byte[] big = content(valueBytes);
        KeySchema keys = KeySchema.of("lab.hotkey." + run);
        try (Redkit small = Redkit.connect(target.url()); Redkit bigClient = Redkit.connect(target.url());
                RoundRunner runner = new RoundRunner(smallCallers)) {
            Readers readers = new Readers(runner, smallReads(small.commands(), keys));
            RedisOps bigOps = bigClient.commands();
            String raw = keys.key("big", "raw");
            bigOps.set(raw, big, KEY_TTL);
            Phase without = phase(readers, null, null);
            Phase with = phase(readers, () -> bigOps.get(raw).orElseThrow(), null);
            bigOps.unlink(raw);
            Limited limited = withPolicy(readers, bigClient, big);
            Compressed compressed = withCompression(readers, bigClient, big);
            return new BigValue(valueBytes, SMALL_KEYS, smallCallers, new SmallReadsP99(without.smallP99Ms(),
                    with.smallP99Ms(), limited.phase().smallP99Ms(), compressed.phase().smallP99Ms()),
                    new Phases(without, with, limited.phase(), compressed.phase()), limited.policy(),
                    compressed.compression());
        }
    }

    /** The small keys, written; and their readers' loop, one GET of a random one per call. */
    private static LabLoop smallReads(RedisOps redis, KeySchema keys) {
        byte[] value = new byte[SMALL_BYTES];
        Arrays.fill(value, (byte) 'v');
        for (int i = 0; i < SMALL_KEYS; i++) {
            redis.set(keys.key("small", String.valueOf(i)), value, KEY_TTL);
        }
        return new LabLoop("small GET", c -> redis.get(keys.key("small", String.valueOf(c.nextInt(SMALL_KEYS))))
                .orElseThrow());
    }

    /** The big reads through a cache whose limit the value is above even deflated (unless --max-value-kb allows). */
    private Limited withPolicy(Readers readers, Redkit redkit, byte[] big) throws InterruptedException {
        CacheConfig<String, byte[]> config = cache(redkit, "big-limited", big)
                .maxValueBytes(maxValueBytes, LargeValuePolicy.SKIP).config();
        String key = config.keySchema().key("big");
        Phase phase;
        try (CacheAside<String, byte[]> cache = RedisCache.create(redkit, config)) {
            phase = phase(readers, () -> cache.get("big").orElseThrow(), cache);
        }
        Long kept = storedBytes(redkit.commands(), key);
        redkit.commands().unlink(key);
        return new Limited(phase, new Policy(LargeValuePolicy.SKIP.name(), maxValueBytes, config.compressAbove(),
                kept, kept == null ? "deflated above " + config.compressAbove() + " bytes, still above "
                        + maxValueBytes + ", so never stored: every big read is a GET that misses, a fill lease, a"
                        + " load and a deflate of the whole value in the lab (the loader hands out a value built in"
                        + " memory: cheap here, a database query in life)"
                        : "deflated to " + kept + " bytes, under the limit: stored, and read back as with"
                        + " compression alone (lower --max-value-kb to see the value refused)"));
    }

    /** The big reads through a cache with a limit the deflated value fits under: stored once, read back deflated. */
    private Compressed withCompression(Readers readers, Redkit redkit, byte[] big) throws InterruptedException {
        int roomy = (int) Math.min(512L << 20, 2L * valueBytes + 1024);
        CacheConfig<String, byte[]> config = cache(redkit, "big-compressed", big)
                .maxValueBytes(roomy, LargeValuePolicy.SKIP).config();
        String key = config.keySchema().key("big");
        Phase phase;
        Long stored;
        try (CacheAside<String, byte[]> cache = RedisCache.create(redkit, config)) {
            cache.get("big").orElseThrow(); // the one load and store, before the phase
            stored = storedBytes(redkit.commands(), key);
            phase = phase(readers, () -> cache.get("big").orElseThrow(), cache);
        }
        redkit.commands().unlink(key);
        return new Compressed(phase, new Compression(config.compressAbove(), roomy, stored, "deflated above "
                + config.compressAbove() + " bytes and stored; every big read is a GET of the stored bytes and an"
                + " inflate in the lab"));
    }

    /** A cache of the big value under the key {@code big}, with redkit's default compression threshold. */
    private RedisCache.Builder<String, byte[]> cache(Redkit redkit, String name, byte[] big) {
        return RedisCache.<String, byte[]>builder(redkit).name(name)
                .keySchema(KeySchema.of("lab.hotkey." + run + "." + name)).codec(AS_IS)
                .compressAbove(CacheConfig.DEFAULT_COMPRESS_ABOVE).loader(k -> Optional.of(big));
    }

    /**
     * The small reads, warmed up alone, then measured while {@code bigRead} (if any) loops on its own thread; the
     * cache's loads (if any) are counted from just before the big reader starts to just after it stopped, as its
     * reads are.
     */
    private Phase phase(Readers readers, Callable<?> bigRead, CacheAside<?, ?> cache) throws InterruptedException {
        Measured.warm(readers.runner(), readers.loop(), warmup);
        if (bigRead == null) {
            return phase(Measured.run(target, readers.runner(), readers.loop(), duration), 0, 0, 0, null, null);
        }
        long loadsBefore = cache == null ? 0 : cache.stats().loads();
        Measured m;
        BigReader reader = BigReader.start(bigRead);
        try (reader) {
            m = Measured.run(target, readers.runner(), readers.loop(), duration);
        }
        Long loads = cache == null ? null : cache.stats().loads() - loadsBefore;
        return phase(m, reader.reads(), reader.errors(), reader.readsPerSecond(), loads, reader.firstError());
    }

    private static Phase phase(Measured m, long bigReads, long bigErrors, double bigPerSecond, Long loads,
            Throwable bigError) {
        String error = m.firstError() != null ? m.firstError()
                : bigError == null ? null : "big read: " + bigError.getClass().getSimpleName() + ": "
                        + bigError.getMessage();
        return new Phase(m.calls(), m.errors(), m.callsPerSecond(), m.millisAt(50), m.millisAt(99), bigReads,
                bigErrors, bigPerSecond, loads, m.serverCpuSeconds(), m.labCpuSeconds(), error);
    }

    /** STRLEN of {@code key}, or null when there is no such key. */
    private static Long storedBytes(RedisOps redis, String key) {
        if (redis.exists(key) == 0) {
            return null;
        }
        return redis.execute("STRLEN", Idempotency.IDEMPOTENT, c -> c.strlen(key));
    }

    /**
     * {@code n} bytes of JSON-like rows (a catalogue, say) with random ids, SKUs and notes, cut at {@code n}: it
     * deflates to about half, as such data does, where a run of one byte would deflate to almost nothing.
     */
    static byte[] content(int n) {
        SplittableRandom random = new SplittableRandom(42);
        StringBuilder json = new StringBuilder(n + 200).append('[');
        for (int id = 1; json.length() < n; id++) {
            json.append("{\"id\":").append(id).append(",\"sku\":\"").append(Long.toHexString(random.nextLong()))
                    .append("\",\"price\":").append(random.nextInt(100_000)).append(",\"stock\":")
                    .append(random.nextInt(1000)).append(",\"note\":\"");
            for (int i = 0; i < 24; i++) {
                json.append((char) ('a' + random.nextInt(26)));
            }
            json.append("\"},");
        }
        return Arrays.copyOf(json.toString().getBytes(StandardCharsets.US_ASCII), n);
    }
}
