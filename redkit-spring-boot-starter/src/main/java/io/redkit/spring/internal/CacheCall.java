package io.redkit.spring.internal;

import java.util.Optional;
import java.util.concurrent.Callable;

import org.springframework.cache.Cache;

/**
 * The key redkit-cache sees for one Spring call: Spring's key, and the value loader of that call, if any. The
 * cache's one loader runs the loader of the call that won the single flight; a call without one (a plain
 * {@code get(key)}) loads nothing: it throws {@link NotCached}, which stores nothing and tells every caller that
 * waited on it that the key was not cached. Only Spring's key makes the Redis key.
 */
final class CacheCall {

    private final Object key;
    private final Callable<?> loader;
    private volatile boolean invoked;

    private CacheCall(Object key, Callable<?> loader) {
        this.key = key;
        this.loader = loader;
    }

    /** A read that must not load. */
    static CacheCall lookup(Object key) {
        return new CacheCall(key, null);
    }

    /** A read that loads with {@code loader} on a miss. */
    static CacheCall load(Object key, Callable<?> loader) {
        return new CacheCall(key, loader);
    }

    Object key() {
        return key;
    }

    /** Whether this call's loader ran (its value is the one cached). */
    boolean invoked() {
        return invoked;
    }

    /**
     * Runs this call's loader; a null result is "not found" (a negative entry). The loader's exception reaches
     * Spring as {@link Cache.ValueRetrievalException}, which is how Spring's cache aspect expects it.
     */
    Optional<Object> run(ValueType type) {
        if (loader == null) {
            throw NotCached.INSTANCE;
        }
        invoked = true;
        Object value;
        try {
            value = loader.call();
        } catch (Exception e) {
            throw new Cache.ValueRetrievalException(key, loader, e);
        }
        return Optional.ofNullable(type.check(value));
    }

    @Override
    public String toString() {
        return String.valueOf(key);
    }

    /** A miss that nobody loaded; carries no stack trace, as it is a result, not a failure. */
    static final class NotCached extends RuntimeException {

        static final NotCached INSTANCE = new NotCached();

        private NotCached() {
            super("not cached", null, false, false);
        }
    }
}
