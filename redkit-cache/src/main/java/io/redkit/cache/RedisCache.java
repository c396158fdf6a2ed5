package io.redkit.cache;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Function;

import io.redkit.KeySchema;
import io.redkit.ReadFrom;
import io.redkit.Redkit;
import io.redkit.Validate;
import io.redkit.cache.internal.DefaultCacheAside;

/** The way in: {@code RedisCache.<Long, Product>builder(redkit).name("product").valueType(Product.class)…build()}. */
public final class RedisCache {

    private RedisCache() {
    }

    /** A builder of a cache over {@code redkit}. */
    public static <K, V> Builder<K, V> builder(Redkit redkit) {
        return new Builder<>(Objects.requireNonNull(redkit, "redkit"));
    }

    /** A cache over {@code redkit} with settings built and validated before ({@link CacheConfig#builder()}). */
    public static <K, V> CacheAside<K, V> create(Redkit redkit, CacheConfig<K, V> config) {
        return new DefaultCacheAside<>(Objects.requireNonNull(redkit, "redkit"), Objects.requireNonNull(config,
                "config"));
    }

    /**
     * Collects and validates a cache's settings; every setter fails at once on a bad value, naming it.
     *
     * @param <K> the key type
     * @param <V> the value type
     */
    public static final class Builder<K, V> {

        private final Redkit redkit;
        String name;
        KeySchema keySchema;
        Function<? super K, List<String>> keyParts = k -> List.of(String.valueOf(k));
        CacheCodec<V> codec;
        int schemaVersion = 1;
        CacheFormat format = CacheConfig.DEFAULT_FORMAT;
        Duration ttl = CacheConfig.DEFAULT_TTL;
        double ttlJitter = CacheConfig.DEFAULT_TTL_JITTER;
        Duration negativeTtl = CacheConfig.DEFAULT_NEGATIVE_TTL;
        CacheLoader<K, V> loader;
        BatchLoader<K, V> batchLoader;
        Duration fillLease = CacheConfig.DEFAULT_FILL_LEASE;
        Duration fillWait = CacheConfig.DEFAULT_FILL_WAIT;
        double earlyRefreshBeta = CacheConfig.DEFAULT_EARLY_REFRESH_BETA;
        Executor refreshExecutor;
        Duration breakerProbeInterval = CacheConfig.DEFAULT_BREAKER_PROBE_INTERVAL;
        int breakerProbesToClose = CacheConfig.DEFAULT_BREAKER_PROBES_TO_CLOSE;
        int breakerWindow = CacheConfig.DEFAULT_BREAKER_WINDOW;
        boolean retryFailedInvalidations = CacheConfig.DEFAULT_RETRY_FAILED_INVALIDATIONS;
        long nearCacheSize = CacheConfig.DEFAULT_NEAR_CACHE_SIZE;
        Duration nearCacheTtl = CacheConfig.DEFAULT_NEAR_CACHE_TTL;
        NearCacheInvalidation nearCacheInvalidation = CacheConfig.DEFAULT_NEAR_CACHE_INVALIDATION;
        int compressAbove = CacheConfig.DEFAULT_COMPRESS_ABOVE;
        boolean compressAboveSet;
        int maxValueBytes = CacheConfig.DEFAULT_MAX_VALUE_BYTES;
        LargeValuePolicy largeValuePolicy = LargeValuePolicy.SKIP;
        ReadFrom readFrom = ReadFrom.MASTER;

        /** {@code redkit} is null for settings alone ({@link CacheConfig#builder()}): then only config() works. */
        Builder(Redkit redkit) {
            this.redkit = redkit;
        }

        /** The cache name (required): 1-58 of {@code [A-Za-z0-9_.-]}. */
        public Builder<K, V> name(String value) {
            this.name = Validate.name("name", value, 58);
            return this;
        }

        /** The key schema ({@code cache.<name>} by default). */
        public Builder<K, V> keySchema(KeySchema value) {
            this.keySchema = Objects.requireNonNull(value, "keySchema");
            return this;
        }

        /** How a key becomes key parts (default: one part, {@code String.valueOf(key)}). */
        public Builder<K, V> keyParts(Function<? super K, List<String>> value) {
            this.keyParts = Objects.requireNonNull(value, "keyParts");
            return this;
        }

        /** JSON of {@code type} through Jackson. */
        public Builder<K, V> valueType(Class<V> type) {
            return codec(JacksonCodec.of(type));
        }

        /** Another codec. */
        public Builder<K, V> codec(CacheCodec<V> value) {
            this.codec = Objects.requireNonNull(value, "codec");
            return this;
        }

        /** The value schema version (0-65535, default 1): bump it when the value's shape changes. */
        public Builder<K, V> schemaVersion(int value) {
            if (value < 0 || value > 0xFFFF) {
                throw new IllegalArgumentException("schemaVersion must be 0-65535, was " + value);
            }
            this.schemaVersion = value;
            return this;
        }

        /**
         * How entries are stored: {@link CacheFormat#ENVELOPE} (the default) or {@link CacheFormat#PLAIN_JSON}, for
         * a key space shared with a service in another language. Plain JSON cannot be combined with
         * {@link #compressAbove} or a {@link #schemaVersion} other than 1 ({@link CacheConfigException} at build).
         */
        public Builder<K, V> format(CacheFormat value) {
            this.format = Objects.requireNonNull(value, "format");
            return this;
        }

        /** The entry TTL (at least 1 ms). */
        public Builder<K, V> ttl(Duration value) {
            this.ttl = positive("ttl", value);
            return this;
        }

        /** The TTL spread, 0 (none) to 1 (anywhere in {@code [0, ttl]}). */
        public Builder<K, V> ttlJitter(double value) {
            if (!(value >= 0 && value <= 1)) {
                throw new IllegalArgumentException("ttlJitter must be within 0-1, was " + value);
            }
            this.ttlJitter = value;
            return this;
        }

        /** The TTL of "not found" markers; {@code Duration.ZERO} does not cache "not found". */
        public Builder<K, V> negativeTtl(Duration value) {
            Objects.requireNonNull(value, "negativeTtl");
            if (value.isNegative()) {
                throw new IllegalArgumentException("negativeTtl must not be negative, was " + value);
            }
            this.negativeTtl = value;
            return this;
        }

        /** The single-key loader. */
        public Builder<K, V> loader(CacheLoader<K, V> value) {
            this.loader = Objects.requireNonNull(value, "loader");
            return this;
        }

        /** The batch loader for {@code getAll} (and {@code get}, when no single-key loader is set). */
        public Builder<K, V> batchLoader(BatchLoader<K, V> value) {
            this.batchLoader = Objects.requireNonNull(value, "batchLoader");
            return this;
        }

        /**
         * The fill lease TTL (100 ms - 5 min); it is kept alive while the loader runs, for at most twelve of its
         * lifetimes. Below 100 ms the first extension, due at a third of it, would wait for a 10 ms timer tick past
         * the lease's end.
         */
        public Builder<K, V> fillLease(Duration value) {
            this.fillLease = within("fillLease", value, Duration.ofMillis(100), Duration.ofMinutes(5));
            return this;
        }

        /** How long a miss waits for another instance's load (0 - 1 min; 0: never wait). */
        public Builder<K, V> fillWait(Duration value) {
            this.fillWait = within("fillWait", value, Duration.ZERO, Duration.ofMinutes(1));
            return this;
        }

        /** XFetch's β (0 - 10; 0 turns early refresh off). */
        public Builder<K, V> earlyRefreshBeta(double value) {
            if (!(value >= 0 && value <= 10)) {
                throw new IllegalArgumentException("earlyRefreshBeta must be within 0-10, was " + value);
            }
            this.earlyRefreshBeta = value;
            return this;
        }

        /** Where early refreshes run (a small pool of the cache's own by default). */
        public Builder<K, V> refreshExecutor(Executor value) {
            this.refreshExecutor = Objects.requireNonNull(value, "refreshExecutor");
            return this;
        }

        /**
         * How often the open breaker probes Redis in the background (10 ms - 10 s); it closes after
         * {@code probesToClose} answers in a row (1 - 100).
         */
        public Builder<K, V> breakerProbes(Duration interval, int probesToClose) {
            this.breakerProbeInterval = within("breaker probe interval", interval, Duration.ofMillis(10),
                    Duration.ofSeconds(10));
            if (probesToClose < 1 || probesToClose > 100) {
                throw new IllegalArgumentException("probesToClose must be 1-100, was " + probesToClose);
            }
            this.breakerProbesToClose = probesToClose;
            return this;
        }

        /** How many recent Redis calls the breaker judges (2-1000); it opens when half of them failed. */
        public Builder<K, V> breakerWindow(int value) {
            if (value < 2 || value > 1000) {
                throw new IllegalArgumentException("breakerWindow must be 2-1000, was " + value);
            }
            this.breakerWindow = value;
            return this;
        }

        /**
         * Whether an invalidation that may not have happened is remembered, retried in the background until it
         * succeeds, and its keys read from the source meanwhile (default true). Off, a failed invalidation is only
         * thrown (or, after commit, logged) and the entry may be served until its TTL.
         */
        public Builder<K, V> retryFailedInvalidations(boolean value) {
            this.retryFailedInvalidations = value;
            return this;
        }

        /** Turns the near cache on: at most {@code size} entries (1 - 10 000 000), each for at most {@code ttl}. */
        public Builder<K, V> nearCache(long size, Duration ttl) {
            if (size < 1 || size > 10_000_000) {
                throw new IllegalArgumentException("near cache size must be 1-10000000, was " + size);
            }
            this.nearCacheTtl = within("nearCache ttl", ttl, Duration.ofMillis(1), Duration.ofMinutes(10));
            this.nearCacheSize = size;
            return this;
        }

        /**
         * How the near cache hears of stale copies: {@link NearCacheInvalidation#TRACKING} (the default: the server
         * tells it of every change, by any client), {@link NearCacheInvalidation#TRACKING_BCAST} or
         * {@link NearCacheInvalidation#PUBSUB}. When the server refuses tracking, or with replica reads, the cache
         * falls back to PUBSUB and says so in its log.
         */
        public Builder<K, V> nearCacheInvalidation(NearCacheInvalidation mode) {
            this.nearCacheInvalidation = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Where GET and MGET go: {@link ReadFrom#MASTER} (the default), or {@link ReadFrom#REPLICA_PREFERRED} on
         * Sentinel and Cluster, which is faster under load but may return, for up to the replication lag, an entry
         * the master already deleted. Fills, leases and invalidations always go to the master.
         */
        public Builder<K, V> readFrom(ReadFrom value) {
            this.readFrom = Objects.requireNonNull(value, "readFrom");
            return this;
        }

        /** Payloads above {@code bytes} are compressed (64 bytes - 64 MiB). */
        public Builder<K, V> compressAbove(int bytes) {
            if (bytes < 64 || bytes > 64 << 20) {
                throw new IllegalArgumentException("compressAbove must be 64-67108864 bytes, was " + bytes);
            }
            this.compressAbove = bytes;
            this.compressAboveSet = true;
            return this;
        }

        /** Envelopes above {@code bytes} after compression are handled by {@code policy} (limit: 64 bytes - 512 MiB). */
        public Builder<K, V> maxValueBytes(int bytes, LargeValuePolicy policy) {
            if (bytes < 64 || bytes > 512 << 20) {
                throw new IllegalArgumentException("maxValueBytes must be 64-536870912 bytes, was " + bytes);
            }
            this.maxValueBytes = bytes;
            this.largeValuePolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }


        /** Validates the combination and returns the settings without building a cache. */
        public CacheConfig<K, V> config() {
            if (name == null) {
                throw new IllegalStateException("name is required");
            }
            if (codec == null) {
                throw new IllegalStateException("cache '" + name + "': a codec or valueType is required");
            }
            if (loader == null && batchLoader == null) {
                throw new IllegalStateException("cache '" + name + "': a loader or batchLoader is required");
            }
            if (fillWait.compareTo(fillLease) >= 0) {
                throw new IllegalStateException("cache '" + name + "': fillWait (" + fillWait
                        + ") must be shorter than fillLease (" + fillLease + ")");
            }
            if (format == CacheFormat.PLAIN_JSON) {
                plainJsonAlone();
            } else if (compressAbove >= maxValueBytes) {
                throw new IllegalStateException("cache '" + name + "': compressAbove (" + compressAbove
                        + ") must be below maxValueBytes (" + maxValueBytes + ")");
            }
            return new CacheConfig<>(this);
        }

        /** What a plain JSON entry has no room for: its header's flags and version. */
        private void plainJsonAlone() {
            if (compressAboveSet) {
                throw new CacheConfigException(name, List.of("format(PLAIN_JSON)", "compressAbove"), "a plain JSON"
                        + " entry has no header to flag a deflated payload, and another language reads it as JSON");
            }
            if (schemaVersion != 1) {
                throw new CacheConfigException(name, List.of("format(PLAIN_JSON)", "schemaVersion"), "a plain JSON"
                        + " entry carries no version; put the version into the key schema instead, as"
                        + " keySchema(KeySchema.of(\"cache." + name + ".v2\"))");
            }
        }

        /**
         * Builds the cache (and subscribes its near cache, if on).
         *
         * @throws IllegalStateException on a bad combination of settings, or when there is no {@code Redkit}
         *     ({@link CacheConfig#builder()}: use {@link RedisCache#create} with the config)
         */
        public CacheAside<K, V> build() {
            CacheConfig<K, V> config = config();
            if (redkit == null) {
                throw new IllegalStateException("cache '" + name + "': these are settings alone, there is no Redkit;"
                        + " use RedisCache.builder(redkit) or RedisCache.create(redkit, config)");
            }
            return new DefaultCacheAside<>(redkit, config);
        }

        private static Duration positive(String field, Duration value) {
            return within(field, value, Duration.ofMillis(1), Duration.ofDays(365));
        }

        private static Duration within(String field, Duration value, Duration min, Duration max) {
            return Validate.within(field, value, min, max);
        }
    }
}
