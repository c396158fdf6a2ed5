package io.redkit.session.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.redkit.RedisOps;
import io.redkit.RedkitClock;
import io.redkit.RedkitException;
import io.redkit.session.SessionHealth;

/**
 * READY or NOT_READY from what operations see, with a probe of its own for when none runs. A readiness check that
 * only listened to requests would stay NOT_READY for ever once the load balancer, told so, stopped sending any;
 * so {@link #health()} sends a PING when its last look is older than {@link #PROBE_EVERY}, one probe at a time.
 *
 * <p>The hot path pays a volatile read per call: the state is replaced (one atomic step, the last one) only when
 * it changes.
 */
final class Readiness {

    /** How stale a look may be before {@link #health()} asks Redis itself. */
    static final Duration PROBE_EVERY = Duration.ofSeconds(1);

    private final RedisOps ops;
    private final RedkitClock clock;
    private final AtomicReference<SessionHealth> state;
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile long lastLookNanos;

    Readiness(RedisOps ops, RedkitClock clock) {
        this.ops = ops;
        this.clock = clock;
        this.state = new AtomicReference<>(new SessionHealth(SessionHealth.Status.READY, now(), null));
        this.lastLookNanos = clock.nanoTime() - PROBE_EVERY.toNanos();
    }

    /** An operation got an answer from Redis. */
    void up() {
        SessionHealth current = state.get();
        if (current.status() != SessionHealth.Status.READY) {
            lastLookNanos = clock.nanoTime();
            state.compareAndSet(current, new SessionHealth(SessionHealth.Status.READY, now(), null));
        }
    }

    /** An operation got no answer. */
    void down(RedkitException e) {
        lastLookNanos = clock.nanoTime();
        SessionHealth current = state.get();
        if (current.status() != SessionHealth.Status.NOT_READY) {
            state.compareAndSet(current, new SessionHealth(SessionHealth.Status.NOT_READY, now(),
                    e.getClass().getSimpleName()));
        }
    }

    /** The state, after a probe when the last look is stale. */
    SessionHealth health() {
        if (clock.nanoTime() - lastLookNanos >= PROBE_EVERY.toNanos() && probing.compareAndSet(false, true)) {
            try {
                lastLookNanos = clock.nanoTime();
                ops.ping();
                up();
            } catch (RedkitException e) {
                down(e);
            } finally {
                probing.set(false);
            }
        }
        return state.get();
    }

    /** Whether the last look saw Redis answer, without probing. */
    boolean isReady() {
        return state.get().status() == SessionHealth.Status.READY;
    }

    private Instant now() {
        return Instant.ofEpochMilli(clock.wallMillis());
    }
}
