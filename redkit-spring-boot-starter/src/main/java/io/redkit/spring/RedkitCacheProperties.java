package io.redkit.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.redkit.ReadFrom;
import io.redkit.cache.NearCacheInvalidation;

/**
 * {@code redkit.cache.*}: the caches the Spring {@code CacheManager} serves, by name. Each declares the type of its
 * values, which is how they are decoded: there is no polymorphic typing, so a cached entry can never name a class
 * to instantiate.
 */
public class RedkitCacheProperties {

    /** The caches, by name (1-58 of [A-Za-z0-9_.-]); a name not listed here is unknown to the CacheManager. */
    private final Map<String, Spec> caches = new LinkedHashMap<>();

    public Map<String, Spec> getCaches() { return caches; }

    /**
     * One cache. Every default is redkit-cache's {@code CacheConfig.DEFAULT_…} constant, written out so that this
     * class loads without redkit-cache and the IDE shows it ({@code PropertyDefaultsTest} keeps them equal).
     */
    public static class Spec {

        /** The class of the values (required): JSON of exactly this type, never of a type the entry names. */
        private Class<?> valueType;

        /** How long an entry lives before jitter. */
        private Duration ttl = Duration.ofMinutes(10);

        /** TTLs are spread over [ttl*(1-jitter), ttl] so that keys written together do not expire together. */
        private double ttlJitter = 0.1;

        /** How long a "not found" (a method that returned null) is cached; 0 does not cache it. */
        private Duration negativeTtl = Duration.ofSeconds(30);

        /** The values' schema version: bump it when the value's shape changes, and old entries become misses. */
        private int schemaVersion = 1;

        /** How long one instance's right to fill a key lasts (kept alive while the method runs). */
        private Duration fillLease = Duration.ofSeconds(5);

        /** How long a miss waits for another instance's load before calling the method itself. */
        private Duration fillWait = Duration.ofSeconds(1);

        /** Entries of the near cache (Caffeine, invalidated by the server or across instances); 0 turns it off. */
        private long nearCacheSize = 0;

        /** How long a near-cache entry lives at most. */
        private Duration nearCacheTtl = Duration.ofSeconds(2);

        /**
         * How the near cache hears of stale copies: TRACKING (the server tells it of any client's write, expiry or
         * eviction), TRACKING_BCAST (every write under the cache's namespace) or PUBSUB (redkit's own channel).
         */
        private NearCacheInvalidation nearCacheInvalidation = NearCacheInvalidation.TRACKING;

        /** How many recent Redis calls the breaker judges; it opens when half of them failed. */
        private int breakerWindow = 10;

        /** Where reads go: MASTER, or REPLICA_PREFERRED on Sentinel and Cluster (may read a deleted entry). */
        private ReadFrom readFrom = ReadFrom.MASTER;

        public Class<?> getValueType() { return valueType; }
        public void setValueType(Class<?> valueType) { this.valueType = valueType; }
        public Duration getTtl() { return ttl; }
        public void setTtl(Duration ttl) { this.ttl = ttl; }
        public double getTtlJitter() { return ttlJitter; }
        public void setTtlJitter(double ttlJitter) { this.ttlJitter = ttlJitter; }
        public Duration getNegativeTtl() { return negativeTtl; }
        public void setNegativeTtl(Duration negativeTtl) { this.negativeTtl = negativeTtl; }
        public int getSchemaVersion() { return schemaVersion; }
        public void setSchemaVersion(int schemaVersion) { this.schemaVersion = schemaVersion; }
        public Duration getFillLease() { return fillLease; }
        public void setFillLease(Duration fillLease) { this.fillLease = fillLease; }
        public Duration getFillWait() { return fillWait; }
        public void setFillWait(Duration fillWait) { this.fillWait = fillWait; }
        public long getNearCacheSize() { return nearCacheSize; }
        public void setNearCacheSize(long nearCacheSize) { this.nearCacheSize = nearCacheSize; }
        public Duration getNearCacheTtl() { return nearCacheTtl; }
        public void setNearCacheTtl(Duration nearCacheTtl) { this.nearCacheTtl = nearCacheTtl; }
        public NearCacheInvalidation getNearCacheInvalidation() { return nearCacheInvalidation; }
        public void setNearCacheInvalidation(NearCacheInvalidation mode) { this.nearCacheInvalidation = mode; }
        public int getBreakerWindow() { return breakerWindow; }
        public void setBreakerWindow(int breakerWindow) { this.breakerWindow = breakerWindow; }
        public ReadFrom getReadFrom() { return readFrom; }
        public void setReadFrom(ReadFrom readFrom) { this.readFrom = readFrom; }
    }
}
