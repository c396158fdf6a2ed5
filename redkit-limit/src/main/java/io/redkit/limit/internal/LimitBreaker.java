package io.redkit.limit.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedisBreaker;
import io.redkit.RedkitClock;

/**
 * The breaker in front of Redis shared by the limiters of one {@code Limits} (core's {@link RedisBreaker}): after
 * a run of decisions that found Redis unavailable it opens, and every decision is made by its limiter's policy at
 * once; a background probe closes it within about a second of Redis answering, so no decision ever waits for one.
 * Adds the limiters' throttled warning.
 */
final class LimitBreaker {

    private static final Logger log = LoggerFactory.getLogger(LimitBreaker.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String namespace;
    private final RedisBreaker breaker;
    private final RedkitClock clock;
    private final AtomicLong lastWarn;

    LimitBreaker(String namespace, RedisBreaker breaker, RedkitClock clock, LimitMetrics metrics) {
        this.namespace = namespace;
        this.breaker = breaker;
        this.clock = clock;
        this.lastWarn = new AtomicLong(clock.nanoTime() - WARN_EVERY_NANOS);
        metrics.breakerGauge(() -> switch (breaker.state()) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        });
    }

    /** Whether a decision may go to Redis now; when true, exactly one of the three reports below must follow. */
    boolean tryAcquire() {
        return breaker.tryAcquire();
    }

    void succeeded(long nanos) {
        breaker.succeeded(nanos);
    }

    /** Records a failure of a decision on {@code key}; the breaker counts only availability failures. */
    void failed(long nanos, Throwable e, String key) {
        breaker.failed(nanos, e, key);
    }

    /** Gives the permission back: the call failed before it reached Redis, for a reason of its own. */
    void released() {
        breaker.released();
    }

    boolean closed() {
        return breaker.state() == RedisBreaker.State.CLOSED;
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
}
