package io.redkit.session.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.redkit.RedisBreaker;
import io.redkit.RedisOps;
import io.redkit.RedkitClock;
import io.redkit.RedkitException;
import io.redkit.session.SessionHealth;

/**
 * READY while the store's {@link RedisBreaker} is closed, NOT_READY while it is open: from the first call that
 * Redis did not answer until a background probe gets an answer, every call fails at once (see {@link Guard}).
 * When no call has looked for {@link #PROBE_EVERY}, {@link #health()} sends a PING itself, so that a store no
 * request reaches (a load balancer told NOT_READY sends none) still learns of an outage; the breaker's own probe
 * brings it back.
 */
final class Readiness {

    /** How stale a look may be before {@link #health()} asks Redis itself. */
    static final Duration PROBE_EVERY = Duration.ofSeconds(1);

    private final RedisBreaker breaker;
    private final RedkitClock clock;
    private final AtomicReference<SessionHealth> state;
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile long lastLookNanos;
    private volatile String cause;

    Readiness(RedisBreaker breaker, RedkitClock clock) {
        this.breaker = breaker;
        this.clock = clock;
        this.state = new AtomicReference<>(new SessionHealth(SessionHealth.Status.READY, now(), null));
        this.lastLookNanos = clock.nanoTime() - PROBE_EVERY.toNanos();
    }

    /** A call got an answer. */
    void answered() {
        lastLookNanos = clock.nanoTime();
    }

    /** A call got no answer: what the health check names as the cause. */
    void unanswered(RedkitException e) {
        lastLookNanos = clock.nanoTime();
        cause = e.getClass().getSimpleName();
    }

    /** The state, after a PING through {@code guard} when no call has looked for a second. */
    SessionHealth health(Guard guard, RedisOps ops) {
        if (isReady() && clock.nanoTime() - lastLookNanos >= PROBE_EVERY.toNanos()
                && probing.compareAndSet(false, true)) {
            try {
                guard.run("health probe", null, ops::ping);
            } catch (RedkitException e) {
                // the guard has recorded it
            } finally {
                probing.set(false);
            }
        }
        return current();
    }

    /** Whether calls go to Redis now. */
    boolean isReady() {
        return breaker.state() == RedisBreaker.State.CLOSED;
    }

    // The breaker changes state on calls and probes; the health's "since" is taken when a look first sees it.
    private SessionHealth current() {
        SessionHealth last = state.get();
        SessionHealth.Status now = isReady() ? SessionHealth.Status.READY : SessionHealth.Status.NOT_READY;
        if (now == last.status()) {
            return last;
        }
        SessionHealth next = new SessionHealth(now, now(), now == SessionHealth.Status.READY ? null : cause);
        return state.compareAndSet(last, next) ? next : state.get();
    }

    private Instant now() {
        return Instant.ofEpochMilli(clock.wallMillis());
    }
}
