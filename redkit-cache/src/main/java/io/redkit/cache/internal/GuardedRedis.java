package io.redkit.cache.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.redkit.PoolExhaustedException;
import io.redkit.RedisOps;
import io.redkit.RedisTimeoutException;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitException;
import io.redkit.cache.CacheHealth;

/**
 * Every read-path Redis call of a cache goes through here: the Resilience4j breaker decides whether Redis is
 * called at all, and a Redis failure becomes {@link Skipped} (logged, counted) so that the caller serves from the
 * source. Only availability failures (timeouts, unreachable, pool exhausted) count against the breaker.
 */
final class GuardedRedis {

    private static final Logger log = LoggerFactory.getLogger(GuardedRedis.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Redis was not used or failed; the caller goes to the source. Preallocated: it is control flow. */
    static final class Skipped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private Skipped() {
            super("Redis skipped", null, false, false);
        }
    }

    static final Skipped SKIPPED = new Skipped();

    private final String cache;
    private final RedisOps ops;
    private final CircuitBreaker breaker;
    private final CacheMetrics metrics;
    private final AtomicLong lastWarn = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);
    private final AtomicReference<CircuitBreaker.State> lastState;

    GuardedRedis(String cache, RedisOps ops, Duration openFor, int window, CacheMetrics metrics) {
        this.cache = cache;
        this.ops = ops;
        this.metrics = metrics;
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .slidingWindow(window, window, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED,
                        // The hit path goes through here; the synchronized window would serialise every GET.
                        CircuitBreakerConfig.SlidingWindowSynchronizationStrategy.LOCK_FREE)
                .failureRateThreshold(50)
                .waitDurationInOpenState(openFor)
                .permittedNumberOfCallsInHalfOpenState(3)
                .recordExceptions(RedisTimeoutException.class, RedisUnavailableException.class,
                        PoolExhaustedException.class)
                .writableStackTraceEnabled(false)
                .build();
        this.breaker = CircuitBreaker.of("redkit-cache-" + cache, config);
        // Transitions are noticed by reading the state after each call, not through the breaker's event
        // publisher: with any consumer registered, Resilience4j builds an event (with a ZonedDateTime.now())
        // for every successful call, a twenty-fifth of a cache hit's CPU in bench cache.
        this.lastState = new AtomicReference<>(breaker.getState());
        metrics.breakerGauge(() -> switch (breaker.getState()) {
            case CLOSED, DISABLED, METRICS_ONLY -> 0;
            case HALF_OPEN -> 1;
            case OPEN, FORCED_OPEN -> 2;
        });
    }

    /** Runs {@code call} unless the breaker is open; a Redis failure throws {@link Skipped}. */
    <T> T call(Function<RedisOps, T> call) {
        if (!breaker.tryAcquirePermission()) {
            noticeTransition();
            throw SKIPPED;
        }
        long start = System.nanoTime();
        T result;
        try {
            result = call.apply(ops);
        } catch (RedkitException e) {
            failed(start, e);
            throw SKIPPED;
        } catch (RuntimeException e) {
            breaker.releasePermission();
            throw e;
        }
        breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        noticeTransition();
        return result;
    }

    /** {@link #call} without blocking: the future fails with {@link Skipped}. */
    <T> CompletableFuture<T> callAsync(Function<RedisOps, CompletableFuture<T>> call) {
        if (!breaker.tryAcquirePermission()) {
            noticeTransition();
            return CompletableFuture.failedFuture(SKIPPED);
        }
        long start = System.nanoTime();
        CompletableFuture<T> future;
        try {
            future = call.apply(ops);
        } catch (RuntimeException e) {
            breaker.releasePermission();
            throw e;
        }
        return future.handle((v, e) -> {
            if (e == null) {
                breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                noticeTransition();
                return v;
            }
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            failed(start, cause);
            throw SKIPPED;
        });
    }

    /** Records a failure of a call that bypasses the breaker's permission (invalidation). */
    void countFailure(Throwable e) {
        metrics.redisError();
        warn(e);
    }

    CacheHealth health() {
        return breaker.getState() == CircuitBreaker.State.CLOSED ? CacheHealth.HEALTHY : CacheHealth.DEGRADED;
    }

    CircuitBreaker.State state() {
        return breaker.getState();
    }

    private void failed(long start, Throwable e) {
        breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
        noticeTransition();
        metrics.redisError();
        warn(e);
    }

    /** Logs a change of the breaker's state once, from whichever call sees it first. */
    private void noticeTransition() {
        CircuitBreaker.State now = breaker.getState();
        CircuitBreaker.State before = lastState.get();
        if (now != before && lastState.compareAndSet(before, now)) {
            log.warn("cache '{}': Redis breaker {} -> {}", cache, before, now);
        }
    }

    private void warn(Throwable e) {
        long now = System.nanoTime();
        long last = lastWarn.get();
        // One warning per 10 s per cache: a Redis outage at 10k reads/s must not become 10k log lines/s.
        if (now - last >= WARN_EVERY_NANOS && lastWarn.compareAndSet(last, now)) {
            log.warn("cache '{}': Redis failed, serving from the source: {}", cache, e.toString());
        } else {
            log.debug("cache '{}': Redis failed: {}", cache, e.toString());
        }
    }
}
