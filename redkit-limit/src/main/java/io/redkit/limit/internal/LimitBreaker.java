package io.redkit.limit.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.redkit.PoolExhaustedException;
import io.redkit.RedisTimeoutException;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitClock;

/**
 * The Resilience4j breaker in front of Redis shared by the limiters of one {@code Limits}: after a run of
 * decisions that found Redis unavailable it opens, and every decision is made by its limiter's policy at once,
 * without waiting for a timeout; after the open time three decisions try Redis again. Only availability failures
 * (timeouts, unreachable, pool exhausted) count against it; a script error is the caller's to see.
 */
final class LimitBreaker {

    private static final Logger log = LoggerFactory.getLogger(LimitBreaker.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String namespace;
    private final CircuitBreaker breaker;
    private final RedkitClock clock;
    private final AtomicLong lastWarn;
    private final AtomicReference<CircuitBreaker.State> lastState;

    LimitBreaker(String namespace, int window, Duration openFor, RedkitClock clock, LimitMetrics metrics) {
        this.namespace = namespace;
        this.clock = clock;
        this.lastWarn = new AtomicLong(clock.nanoTime() - WARN_EVERY_NANOS);
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .slidingWindow(window, window, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED,
                        // Every decision goes through here; the synchronized window would serialise them all.
                        CircuitBreakerConfig.SlidingWindowSynchronizationStrategy.LOCK_FREE)
                .failureRateThreshold(50)
                .waitDurationInOpenState(openFor)
                .permittedNumberOfCallsInHalfOpenState(3)
                .recordExceptions(RedisTimeoutException.class, RedisUnavailableException.class,
                        PoolExhaustedException.class)
                .writableStackTraceEnabled(false)
                .build();
        this.breaker = CircuitBreaker.of("redkit-limit-" + namespace, config);
        // Transitions are noticed by reading the state after each call: with an event consumer registered,
        // Resilience4j builds an event (with a ZonedDateTime.now()) for every successful call.
        this.lastState = new AtomicReference<>(breaker.getState());
        metrics.breakerGauge(() -> switch (breaker.getState()) {
            case CLOSED, DISABLED, METRICS_ONLY -> 0;
            case HALF_OPEN -> 1;
            case OPEN, FORCED_OPEN -> 2;
        });
    }

    /** Whether a decision may go to Redis now; when true, exactly one of the three reports below must follow. */
    boolean tryAcquire() {
        if (breaker.tryAcquirePermission()) {
            return true;
        }
        noticeTransition();
        return false;
    }

    void succeeded(long nanos) {
        breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
        noticeTransition();
    }

    /** Records a failure; the breaker counts only the availability failures it was told to. */
    void failed(long nanos, Throwable e) {
        breaker.onError(nanos, TimeUnit.NANOSECONDS, e);
        noticeTransition();
    }

    /** Gives the permission back: the call failed before it reached Redis, for a reason of its own. */
    void released() {
        breaker.releasePermission();
    }

    boolean closed() {
        return breaker.getState() == CircuitBreaker.State.CLOSED;
    }

    /** Logs Redis being unavailable, once per 10 s: an outage at 10k decisions/s must not become 10k lines/s. */
    void warnUnavailable(String limiter, String policy, Throwable cause) {
        long now = clock.nanoTime();
        long last = lastWarn.get();
        String why = cause == null ? "breaker open" : cause.toString();
        if (now - last >= WARN_EVERY_NANOS && lastWarn.compareAndSet(last, now)) {
            log.warn("limits '{}': Redis unavailable, limiter '{}' decides by policy {}: {}", namespace, limiter,
                    policy, why);
        } else {
            log.debug("limits '{}': limiter '{}' decides by policy {}: {}", namespace, limiter, policy, why);
        }
    }

    private void noticeTransition() {
        CircuitBreaker.State now = breaker.getState();
        CircuitBreaker.State before = lastState.get();
        if (now != before && lastState.compareAndSet(before, now)) {
            log.warn("limits '{}': Redis breaker {} -> {}", namespace, before, now);
        }
    }
}
