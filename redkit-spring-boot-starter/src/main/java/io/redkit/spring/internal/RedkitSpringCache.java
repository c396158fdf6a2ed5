package io.redkit.spring.internal;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cache.Cache;
import org.springframework.cache.support.SimpleValueWrapper;

import io.redkit.RedkitException;
import io.redkit.Redkit;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheCodec;
import io.redkit.cache.CacheHealth;
import io.redkit.cache.JacksonCodec;
import io.redkit.cache.RedisCache;
import io.redkit.json.Json;
import io.redkit.spring.RedkitCacheProperties;

/**
 * A Spring {@link Cache} over a redkit-cache {@link CacheAside}. {@link #get(Object, Callable)} (what
 * {@code @Cacheable(sync = true)} calls) goes through redkit's loader path: one load per key in the instance and
 * across instances, TTL jitter, the breaker, and a null result cached as a short "not found". Values are JSON of
 * the cache's declared value type and nothing else.
 *
 * <p>Writes follow cache-aside: {@link #evict} and {@link #clear} delete (prefix deletion for a clear), and throw
 * redkit's exception when Redis cannot be told, which Spring hands to its {@code CacheErrorHandler}: the entry may
 * live until its TTL, and the caller should know. {@link #put} deletes, then fills the key with the value through
 * the fill lease, so a load that began before it cannot write its older value afterwards; it runs after the
 * method did its work, so a put Redis cannot take is logged, not thrown (nor tried while the breaker is open).
 */
public final class RedkitSpringCache implements Cache {

    private static final Logger log = LoggerFactory.getLogger(RedkitSpringCache.class);

    private final CacheAside<CacheCall, Object> aside;
    private final ValueType valueType;

    private RedkitSpringCache(CacheAside<CacheCall, Object> aside, ValueType valueType) {
        this.aside = aside;
        this.valueType = valueType;
    }

    /**
     * The cache {@code name} over {@code redkit}, as {@code spec} describes it; a bad setting fails here, named.
     * Early refresh (XFetch) is off: it would call a finished call's method again on a pool thread, outside the
     * caller's transaction and security context.
     */
    public static RedkitSpringCache create(Redkit redkit, String name, RedkitCacheProperties.Spec spec, Json json) {
        ValueType type = new ValueType(name, spec.getValueType());
        try {
            RedisCache.Builder<CacheCall, Object> builder = RedisCache.<CacheCall, Object>builder(redkit).name(name)
                    .codec(codec(json, spec.getValueType()))
                    .keyParts(call -> List.of(String.valueOf(call.key())))
                    .loader(call -> call.run(type))
                    .earlyRefreshBeta(0)
                    .ttl(spec.getTtl()).ttlJitter(spec.getTtlJitter()).negativeTtl(spec.getNegativeTtl())
                    .schemaVersion(spec.getSchemaVersion()).fillLease(spec.getFillLease())
                    .fillWait(spec.getFillWait()).breakerWindow(spec.getBreakerWindow())
                    .readFrom(spec.getReadFrom());
            if (spec.getNearCacheSize() > 0) {
                builder.nearCache(spec.getNearCacheSize(), spec.getNearCacheTtl())
                        .nearCacheInvalidation(spec.getNearCacheInvalidation());
            }
            return new RedkitSpringCache(builder.build(), type);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IllegalArgumentException("redkit.cache.caches." + name + ": " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static CacheCodec<Object> codec(Json json, Class<?> type) {
        return (CacheCodec<Object>) JacksonCodec.using(json, type);
    }

    @Override
    public String getName() {
        return aside.name();
    }

    @Override
    public Object getNativeCache() {
        return aside;
    }

    /** The cached value (a wrapper of null for a cached "not found"), or null on a miss; never loads. */
    @Override
    public ValueWrapper get(Object key) {
        try {
            return wrap(aside.get(CacheCall.lookup(key)));
        } catch (CacheCall.NotCached e) {
            return null;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(Object key, Class<T> type) {
        ValueWrapper wrapper = get(key);
        Object value = wrapper == null ? null : wrapper.get();
        if (value != null && type != null && !type.isInstance(value)) {
            throw new IllegalStateException("Cached value is not of required type [" + type.getName() + "]: " + value);
        }
        return (T) value;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(Object key, Callable<T> valueLoader) {
        return (T) load(CacheCall.load(key, valueLoader)).orElse(null);
    }

    @Override
    public void put(Object key, Object value) {
        valueType.check(value);
        if (!aside.health().isHealthy()) {
            // The breaker skips Redis: a plain @Cacheable's put after each miss must not pay a timeout each.
            log.debug("cache '{}': put of {} skipped while Redis is skipped", aside.name(), key);
            return;
        }
        try {
            aside.invalidate(List.of(CacheCall.lookup(key)));
        } catch (RedkitException e) {
            log.warn("cache '{}': put of {} not written; an older entry may be served until its TTL: {}",
                    aside.name(), key, e.toString());
            return;
        }
        load(CacheCall.load(key, () -> value));
    }

    @Override
    public ValueWrapper putIfAbsent(Object key, Object value) {
        valueType.check(value);
        CacheCall call = CacheCall.load(key, () -> value);
        Optional<Object> present = load(call);
        return call.invoked() ? null : wrap(present);
    }

    @Override
    public void evict(Object key) {
        aside.invalidate(List.of(CacheCall.lookup(key)));
    }

    @Override
    public boolean evictIfPresent(Object key) {
        return aside.invalidate(List.of(CacheCall.lookup(key))) > 0;
    }

    @Override
    public void clear() {
        aside.invalidateByPrefix();
    }

    @Override
    public boolean invalidate() {
        return aside.invalidateByPrefix() > 0;
    }

    /** HEALTHY while Redis is used, DEGRADED while the breaker sends reads to the method. */
    public CacheHealth health() {
        return aside.health();
    }

    /** Stops the cache's own threads and meters; the {@code Redkit} stays open. */
    public void close() {
        aside.close();
    }

    /**
     * A read that loads on a miss. When it waited on a lookup's flight (a plain {@code get(key)} that found the key
     * missing and loaded nothing), it reads again: the key is still missing and this call may load it.
     */
    private Optional<Object> load(CacheCall call) {
        while (true) {
            try {
                return aside.get(call);
            } catch (CacheCall.NotCached e) {
                // Someone else's lookup missed; ours has a loader, so the next round loads or finds a value.
            }
        }
    }

    private static ValueWrapper wrap(Optional<Object> value) {
        return new SimpleValueWrapper(value.orElse(null));
    }
}
