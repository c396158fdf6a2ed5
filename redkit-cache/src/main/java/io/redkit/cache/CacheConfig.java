package io.redkit.cache;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;

import io.redkit.KeySchema;
import io.redkit.ReadFrom;

/**
 * The immutable settings of one cache, built and validated by {@link RedisCache.Builder}; each default is the
 * {@code DEFAULT_…} constant next to it.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class CacheConfig<K, V> {

    /** How long an entry lives. */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(10);
    /** TTLs are spread over {@code [ttl·(1−jitter), ttl]}, so keys written together do not expire together. */
    public static final double DEFAULT_TTL_JITTER = 0.1;
    /** How long a "not found" marker lives (the seeds: 30–60 s). */
    public static final Duration DEFAULT_NEGATIVE_TTL = Duration.ofSeconds(30);
    /** How long one instance's right to fill a key lasts; a load that takes longer does not write back. */
    public static final Duration DEFAULT_FILL_LEASE = Duration.ofSeconds(5);
    /** How long a miss waits for another instance's load before loading itself. */
    public static final Duration DEFAULT_FILL_WAIT = Duration.ofSeconds(1);
    /** XFetch's β: 1 is the paper's optimum; above 1 refreshes earlier, 0 turns early refresh off. */
    public static final double DEFAULT_EARLY_REFRESH_BETA = 1.0;
    /**
     * How often the open breaker probes Redis in the background. The seeds' 10–30 s open period left the source
     * carrying the whole load for that long after Redis was back; probing every 200 ms and closing after three
     * answers in a row brings Redis back within about a second, and no user read ever pays a probe.
     */
    public static final Duration DEFAULT_BREAKER_PROBE_INTERVAL = Duration.ofMillis(200);
    /** Background probes that must answer in a row before the breaker closes. */
    public static final int DEFAULT_BREAKER_PROBES_TO_CLOSE = 3;
    /** The breaker judges the last this-many Redis calls; it opens when half of them failed. */
    public static final int DEFAULT_BREAKER_WINDOW = 10;
    /**
     * An invalidation that may not have happened (rejected while disconnected, timed out) is remembered and retried
     * until it succeeds, and this instance reads its keys from the source meanwhile.
     */
    public static final boolean DEFAULT_RETRY_FAILED_INVALIDATIONS = true;
    /** Near cache off unless a size is set. */
    public static final long DEFAULT_NEAR_CACHE_SIZE = 0;
    /** A near-cache entry lives this long at most, even when an invalidation message is lost. */
    public static final Duration DEFAULT_NEAR_CACHE_TTL = Duration.ofSeconds(2);
    /** The server invalidates the near cache; redkit's channel where the server refuses tracking. */
    public static final NearCacheInvalidation DEFAULT_NEAR_CACHE_INVALIDATION = NearCacheInvalidation.TRACKING;
    /** redkit's versioned envelope; {@link CacheFormat#PLAIN_JSON} is for a cache shared with another language. */
    public static final CacheFormat DEFAULT_FORMAT = CacheFormat.ENVELOPE;
    /** Payloads above this many bytes are deflated (never in {@link CacheFormat#PLAIN_JSON}). */
    public static final int DEFAULT_COMPRESS_ABOVE = 16 * 1024;
    /** Envelopes above this many bytes (after compression) are not cached. */
    public static final int DEFAULT_MAX_VALUE_BYTES = 1024 * 1024;

    private final String name;
    private final KeySchema keySchema;
    private final Function<? super K, List<String>> keyParts;
    private final CacheCodec<V> codec;
    private final int schemaVersion;
    private final CacheFormat format;
    private final Duration ttl;
    private final double ttlJitter;
    private final Duration negativeTtl;
    private final CacheLoader<K, V> loader;
    private final BatchLoader<K, V> batchLoader;
    private final Duration fillLease;
    private final Duration fillWait;
    private final double earlyRefreshBeta;
    private final Executor refreshExecutor;
    private final Duration breakerProbeInterval;
    private final int breakerProbesToClose;
    private final int breakerWindow;
    private final boolean retryFailedInvalidations;
    private final long nearCacheSize;
    private final Duration nearCacheTtl;
    private final NearCacheInvalidation nearCacheInvalidation;

    private final int compressAbove;
    private final int maxValueBytes;
    private final LargeValuePolicy largeValuePolicy;
    private final ReadFrom readFrom;

    /**
     * The settings alone, without a Redkit: {@code config()} validates them (for tests, and for a configuration
     * read from properties), and {@link RedisCache#create} builds a cache from the result.
     */
    public static <K, V> RedisCache.Builder<K, V> builder() {
        return new RedisCache.Builder<>(null);
    }

    CacheConfig(RedisCache.Builder<K, V> b) {
        this.name = b.name;
        this.keySchema = b.keySchema != null ? b.keySchema : KeySchema.of("cache." + b.name);
        this.keyParts = b.keyParts;
        this.codec = b.codec;
        this.schemaVersion = b.schemaVersion;
        this.format = b.format;
        this.ttl = b.ttl;
        this.ttlJitter = b.ttlJitter;
        this.negativeTtl = b.negativeTtl;
        this.loader = b.loader;
        this.batchLoader = b.batchLoader;
        this.fillLease = b.fillLease;
        this.fillWait = b.fillWait;
        this.earlyRefreshBeta = b.earlyRefreshBeta;
        this.refreshExecutor = b.refreshExecutor;
        this.breakerProbeInterval = b.breakerProbeInterval;
        this.breakerProbesToClose = b.breakerProbesToClose;
        this.breakerWindow = b.breakerWindow;
        this.retryFailedInvalidations = b.retryFailedInvalidations;
        this.nearCacheSize = b.nearCacheSize;
        this.nearCacheTtl = b.nearCacheTtl;
        this.nearCacheInvalidation = b.nearCacheInvalidation;
        this.compressAbove = b.compressAbove;
        this.maxValueBytes = b.maxValueBytes;
        this.largeValuePolicy = b.largeValuePolicy;
        this.readFrom = b.readFrom;
    }

    /** The cache name: tags the meters, and names the key namespace {@code cache.<name>} unless one is set. */
    public String name() { return name; }

    /** Builds every key of this cache. */
    public KeySchema keySchema() { return keySchema; }

    /** The key parts of a key ({@code String.valueOf(key)} by default); leading parts are what prefix invalidation matches. */
    public Function<? super K, List<String>> keyParts() { return keyParts; }

    /** The value codec inside the envelope. */
    public CacheCodec<V> codec() { return codec; }

    /** The value schema version written into the envelope; an entry of another version is a miss. */
    public int schemaVersion() { return schemaVersion; }

    /** How entries are stored: the envelope, or plain JSON for a cache shared with another language. */
    public CacheFormat format() { return format; }

    /** The TTL of an entry before jitter. */
    public Duration ttl() { return ttl; }

    /** The TTL spread as a fraction of the TTL. */
    public double ttlJitter() { return ttlJitter; }

    /** The TTL of a "not found" marker; zero: not-found is not cached. */
    public Duration negativeTtl() { return negativeTtl; }

    /** The single-key loader, or null when only a batch loader was given. */
    public CacheLoader<K, V> loader() { return loader; }

    /** The batch loader, or null when only a single-key loader was given. */
    public BatchLoader<K, V> batchLoader() { return batchLoader; }

    /** The fill lease TTL. */
    public Duration fillLease() { return fillLease; }

    /** The bound on waiting for another instance's load. */
    public Duration fillWait() { return fillWait; }

    /** XFetch's β (0: off). */
    public double earlyRefreshBeta() { return earlyRefreshBeta; }

    /** Runs early refreshes; null: a small pool of the cache's own. */
    public Executor refreshExecutor() { return refreshExecutor; }

    /** How often the open breaker probes Redis in the background. */
    public Duration breakerProbeInterval() { return breakerProbeInterval; }

    /** How many background probes must answer in a row before the breaker closes. */
    public int breakerProbesToClose() { return breakerProbesToClose; }

    /** The breaker's window of calls. */
    public int breakerWindow() { return breakerWindow; }

    /** Whether failed invalidations are remembered and retried; default true. */
    public boolean retryFailedInvalidations() { return retryFailedInvalidations; }

    /** The near cache's size bound (0: no near cache). */
    public long nearCacheSize() { return nearCacheSize; }

    /** The near cache's TTL. */
    public Duration nearCacheTtl() { return nearCacheTtl; }

    /** How the near cache is told of stale copies (asked for; the server may refuse tracking). */
    public NearCacheInvalidation nearCacheInvalidation() { return nearCacheInvalidation; }

    /** The compression threshold in bytes; {@link Integer#MAX_VALUE} (never) in {@link CacheFormat#PLAIN_JSON}. */
    public int compressAbove() { return format == CacheFormat.PLAIN_JSON ? Integer.MAX_VALUE : compressAbove; }

    /** The size limit of an envelope in bytes. */
    public int maxValueBytes() { return maxValueBytes; }

    /** What happens above the size limit. */
    public LargeValuePolicy largeValuePolicy() { return largeValuePolicy; }

    /** Where GET and MGET go (fills and invalidations always go to the master). */
    public ReadFrom readFrom() { return readFrom; }

    @Override
    public String toString() {
        return "CacheConfig[" + name + ", " + keySchema + ", ttl=" + ttl + ", jitter=" + ttlJitter + ", negativeTtl="
                + negativeTtl + ", v" + schemaVersion + ", " + format + ", near=" + nearCacheSize
                + (nearCacheSize > 0 ? "/" + nearCacheInvalidation : "") + ", readFrom=" + readFrom + "]";
    }
}
