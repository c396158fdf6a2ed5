package io.redkit.cache.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.redkit.PoolExhaustedException;
import io.redkit.RedisCommandException;
import io.redkit.RedisOps;
import io.redkit.RedisReads;
import io.redkit.RedisTimeoutException;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitException;
import io.redkit.RedkitTimer;
import io.redkit.cache.CacheHealth;

/**
 * Every read-path Redis call of a cache goes through here: the Resilience4j breaker decides whether Redis is
 * called at all, and a Redis failure becomes {@link Skipped} (logged, counted) so that the caller serves from the
 * source. Only availability failures (timeouts, unreachable, pool exhausted) count against the breaker; a
 * {@code WRONGTYPE} reply is handed to the caller, which repairs the entry.
 *
 * <p>Once open, the breaker never lets a user read through to find out whether Redis is back: Resilience4j's own
 * half-open state would make user reads pay the probes (a timeout each while Redis is still stalled). Instead a
 * probe runs in the background on the client's timer, a GET of the key that last failed (so on Cluster it asks
 * the node that failed), one at a time, every probe interval. After {@code probesToClose} answers in a row the
 * breaker closes; after the first one the health says HALF_OPEN.
 */
final class GuardedRedis implements AutoCloseable {

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
    private final RedisOps master;
    private final RedisReads reads;
    private final RedkitTimer timer;
    private final long probeIntervalNanos;
    private final int probesToClose;
    private final CircuitBreaker breaker;
    private final CacheMetrics metrics;
    private final AtomicLong lastWarn;
    private final AtomicReference<CacheHealth.Breaker> lastState = new AtomicReference<>(CacheHealth.Breaker.CLOSED);
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile int answered;
    private volatile String probeKey;
    private volatile boolean closed;

    GuardedRedis(String cache, RedisOps master, RedisReads reads, RedkitTimer timer, Duration probeInterval,
            int probesToClose, int window, CacheMetrics metrics) {
        this.cache = cache;
        this.master = master;
        this.reads = reads;
        this.timer = timer;
        this.probeIntervalNanos = probeInterval.toNanos();
        this.probesToClose = probesToClose;
        this.metrics = metrics;
        this.lastWarn = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .slidingWindow(window, window, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED,
                        // The hit path goes through here; the synchronized window would serialise every GET.
                        CircuitBreakerConfig.SlidingWindowSynchronizationStrategy.LOCK_FREE)
                .failureRateThreshold(50)
                // Open until the background probe closes it: Resilience4j never goes half-open by itself here.
                .waitDurationInOpenState(Duration.ofDays(3650))
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .recordExceptions(RedisTimeoutException.class, RedisUnavailableException.class,
                        PoolExhaustedException.class)
                .writableStackTraceEnabled(false)
                .build();
        this.breaker = CircuitBreaker.of("redkit-cache-" + cache, config);
        // Transitions are noticed by reading the state after each call, not through the breaker's event
        // publisher: with any consumer registered, Resilience4j builds an event (with a ZonedDateTime.now())
        // for every successful call, a twenty-fifth of a cache hit's CPU in bench cache.
        metrics.breakerGauge(() -> switch (breakerState()) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        });
    }

    /** A read ({@code GET}, {@code MGET}) where the cache reads, maybe a replica; {@code key} names the node. */
    <T> T read(String key, Function<RedisReads, T> call) {
        return guarded(key, () -> call.apply(reads));
    }

    /** A call on the master (fill scripts, leases), unless the breaker is open. */
    <T> T call(String key, Function<RedisOps, T> call) {
        return guarded(key, () -> call.apply(master));
    }

    /** {@link #call} without blocking: the future fails with {@link Skipped}. */
    <T> CompletableFuture<T> callAsync(String key, Function<RedisOps, CompletableFuture<T>> call) {
        if (!breaker.tryAcquirePermission()) {
            return CompletableFuture.failedFuture(SKIPPED);
        }
        long start = System.nanoTime();
        CompletableFuture<T> future;
        try {
            future = call.apply(master);
        } catch (RuntimeException e) {
            breaker.releasePermission();
            throw e;
        }
        return future.handle((v, e) -> {
            if (e == null) {
                breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                return v;
            }
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            failed(key, start, cause);
            throw SKIPPED;
        });
    }

    private <T> T guarded(String key, java.util.function.Supplier<T> call) {
        if (!breaker.tryAcquirePermission()) {
            throw SKIPPED;
        }
        long start = System.nanoTime();
        T result;
        try {
            result = call.get();
        } catch (RedisCommandException e) {
            // Redis answered: an entry of the wrong type is the caller's to repair, not an outage.
            breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            if ("WRONGTYPE".equals(e.errorCode())) {
                throw e;
            }
            countFailure(e);
            throw SKIPPED;
        } catch (RedkitException e) {
            failed(key, start, e);
            throw SKIPPED;
        } catch (RuntimeException e) {
            breaker.releasePermission();
            throw e;
        }
        breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return result;
    }

    /** The master, for invalidation: it bypasses the breaker, because skipping it would leave stale entries. */
    RedisOps master() {
        return master;
    }

    /** Counts and logs a failure that does not judge availability (invalidation, a command error). */
    void countFailure(Throwable e) {
        metrics.redisError();
        warn(e);
    }

    /** HEALTHY while the breaker is closed; DEGRADED, open or half-open (probes answering), otherwise. */
    CacheHealth health() {
        CacheHealth.Breaker state = breakerState();
        return new CacheHealth(state == CacheHealth.Breaker.CLOSED ? CacheHealth.Status.HEALTHY
                : CacheHealth.Status.DEGRADED, state);
    }

    private CacheHealth.Breaker breakerState() {
        return switch (breaker.getState()) {
            case CLOSED, DISABLED, METRICS_ONLY -> CacheHealth.Breaker.CLOSED;
            default -> answered > 0 ? CacheHealth.Breaker.HALF_OPEN : CacheHealth.Breaker.OPEN;
        };
    }

    private void failed(String key, long start, Throwable e) {
        probeKey = key;
        breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
        metrics.redisError();
        warn(e);
        if (breaker.getState() == CircuitBreaker.State.OPEN) {
            startProbing();
        }
        noticeTransition();
    }

    private void startProbing() {
        if (closed || !probing.compareAndSet(false, true)) {
            return;
        }
        answered = 0;
        scheduleProbe();
    }

    private void scheduleProbe() {
        try {
            timer.schedule(this::probe, probeIntervalNanos);
        } catch (RejectedExecutionException stopped) {
            probing.set(false); // the client is closed: nobody reads any more
        }
    }

    /** One background probe; runs on the timer thread and only sends, so it never blocks it. */
    private void probe() {
        if (closed) {
            probing.set(false);
            return;
        }
        String key = probeKey;
        CompletableFuture<?> reply;
        try {
            reply = master == reads ? master.getAsync(key)
                    : CompletableFuture.allOf(master.getAsync(key), reads.getAsync(key));
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete((v, e) -> {
            if (e != null) {
                answered = 0;
                noticeTransition();
                scheduleProbe();
                return;
            }
            answered++;
            if (answered >= probesToClose) {
                breaker.transitionToClosedState();
                answered = 0;
                probing.set(false);
            } else {
                scheduleProbe();
            }
            noticeTransition();
        });
    }

    /** Logs a change of the breaker's state once, from whichever call sees it first. */
    private void noticeTransition() {
        CacheHealth.Breaker now = breakerState();
        CacheHealth.Breaker before = lastState.get();
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

    /** Stops probing. */
    @Override
    public void close() {
        closed = true;
    }
}
