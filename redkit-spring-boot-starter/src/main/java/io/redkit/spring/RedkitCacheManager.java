package io.redkit.spring;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

import io.redkit.Redkit;
import io.redkit.json.Json;
import io.redkit.cache.CacheHealth;
import io.redkit.spring.internal.RedkitSpringCache;

/**
 * A Spring {@link CacheManager} whose caches are redkit-cache caches, one per {@code redkit.cache.caches.<name>},
 * all built at start-up (so a bad setting fails the start). It is not dynamic: {@link #getCache} of a name that is
 * not configured is null, as Spring documents, and Spring's cache aspect then fails the call naming the cache.
 */
public final class RedkitCacheManager implements CacheManager, AutoCloseable {

    private final Map<String, RedkitSpringCache> caches;

    /**
     * Builds every configured cache over {@code redkit}, values as JSON through {@link Json#defaults()}; on a bad
     * one, closes those already built and throws.
     */
    public RedkitCacheManager(Redkit redkit, RedkitCacheProperties properties) {
        this(redkit, properties, Json.defaults());
    }

    /**
     * Builds every configured cache over {@code redkit}, values as JSON through {@code json} (the application's
     * Jackson); on a bad one, closes those already built and throws.
     */
    public RedkitCacheManager(Redkit redkit, RedkitCacheProperties properties, Json json) {
        Map<String, RedkitSpringCache> built = new LinkedHashMap<>();
        try {
            properties.getCaches().forEach((name, spec) -> built.put(name, RedkitSpringCache.create(redkit, name,
                    spec, json)));
        } catch (RuntimeException e) {
            built.values().forEach(RedkitSpringCache::close);
            throw e;
        }
        this.caches = Collections.unmodifiableMap(built);
    }

    /** The cache of that name, or null when it is not configured. */
    @Override
    public Cache getCache(String name) {
        return caches.get(name);
    }

    @Override
    public Collection<String> getCacheNames() {
        return caches.keySet();
    }

    /** Each cache's health, by name: DEGRADED (with the breaker's state) while its reads skip Redis. */
    public Map<String, CacheHealth> health() {
        Map<String, CacheHealth> health = new LinkedHashMap<>();
        caches.forEach((name, cache) -> health.put(name, cache.health()));
        return health;
    }

    /** Closes every cache (their threads and meters); the {@code Redkit} stays open. */
    @Override
    public void close() {
        caches.values().forEach(RedkitSpringCache::close);
    }
}
