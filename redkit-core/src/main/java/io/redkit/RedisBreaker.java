package io.redkit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;

/**
 * A circuit breaker in front of Redis for a feature's request path (a cache's reads, a limiter's decisions), so
 * that while Redis keeps failing nobody waits for a timeout. Resilience4j decides when to open: half of the last
 * {@code window} calls failed for availability (a timeout, Redis unreachable, the pool exhausted; an error reply
 * is an answer, not an outage).
 *
 * <p>Once open it never lets a user call through to find out whether Redis is back: Resilience4j's own half-open
 * state would make user calls pay the probes, a timeout each while Redis is still stalled. Instead one probe at a
 * time runs in the background on the client's timer: a GET of the key that last failed (so on Cluster it asks
 * the node that failed) through every {@link RedisReads} the feature uses. After {@code probesToClose} answers in a
 * row the breaker closes; after the first one it reports {@link State#HALF_OPEN}. Written here rather than
 * configured in Resilience4j, which has no background probing.
 */
public final class RedisBreaker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisBreaker.class);

    /** The breaker as a health check shows it. */
    public enum State {
        /** Redis answers; calls go to it. */
        CLOSED,
        /** Redis failed; calls skip it while the background probe asks whether it is back. */
        OPEN,
        /** The probe got answers; the breaker closes after a few in a row. Calls still skip Redis. */
        HALF_OPEN
    }

    /** The shortest and longest pause between two background probes. */
    public static final Duration MIN_PROBE_INTERVAL = Duration.ofMillis(10);
    public static final Duration MAX_PROBE_INTERVAL = Duration.ofSeconds(10);

    private final String name;
    private final CircuitBreaker breaker;
    private final RedkitTimer timer;
    private final List<RedisReads> probed;
    private final long probeIntervalNanos;
    private final int probesToClose;
    private final AtomicReference<State> lastState = new AtomicReference<>(State.CLOSED);
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile int answered;
    private volatile String probeKey = "redkit:breaker-probe";
    private volatile boolean closed;

    private RedisBreaker(String name, RedkitTimer timer, List<RedisReads> probed, int window, int minimumCalls,
            Duration probeInterval, int probesToClose) {
        this.name = name;
        this.timer = timer;
        this.probed = probed;
        this.probeIntervalNanos = probeInterval.toNanos();
        this.probesToClose = probesToClose;
        this.breaker = CircuitBreaker.of("redkit-" + name, CircuitBreakerConfig.custom()
                .slidingWindow(window, minimumCalls, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED,
                        // Every call of a hot path records here. The lock-free window copies its aggregation, a
                        // list node and a snapshot per record (~300 B: 10% of a session load's allocation); the
                        // synchronized one updates in place, inside a lock held for a few counter updates.
                        CircuitBreakerConfig.SlidingWindowSynchronizationStrategy.SYNCHRONIZED)
                .failureRateThreshold(50)
                // A slow answer is an answer: judged as slow, one success after a GC pause or a frozen process
                // could open the breaker with no failure to start the probe that closes it.
                .slowCallRateThreshold(100)
                .slowCallDurationThreshold(Duration.ofDays(3650))
                // Open until the background probe closes it: Resilience4j never goes half-open by itself here.
                .waitDurationInOpenState(Duration.ofDays(3650))
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .recordExceptions(RedisTimeoutException.class, RedisUnavailableException.class,
                        PoolExhaustedException.class)
                .writableStackTraceEnabled(false)
                .build());
        // Transitions are noticed by reading the state after calls, not through the event publisher: with any
        // consumer registered, Resilience4j builds an event (with a ZonedDateTime.now()) for every success.
    }

    /**
     * A breaker named {@code name} (for logs) on {@code redkit}'s timer that probes through {@code probed} (the
     * connections the feature's calls use: the master, maybe replicas too).
     *
     * @param window how many recent calls it judges (2-1000); it opens when half of them failed
     * @param probeInterval the pause between background probes ({@link #MIN_PROBE_INTERVAL} - {@link
     *     #MAX_PROBE_INTERVAL})
     * @param probesToClose answers in a row that close it (1-100)
     */
    public static RedisBreaker create(Redkit redkit, String name, int window, Duration probeInterval,
            int probesToClose, RedisReads... probed) {
        Objects.requireNonNull(redkit, "redkit");
        Objects.requireNonNull(name, "name");
        if (window < 2 || window > 1000) {
            throw new IllegalArgumentException("breaker window must be 2-1000, was " + window);
        }
        Validate.within("breaker probe interval", probeInterval, MIN_PROBE_INTERVAL, MAX_PROBE_INTERVAL);
        if (probesToClose < 1 || probesToClose > 100) {
            throw new IllegalArgumentException("probesToClose must be 1-100, was " + probesToClose);
        }
        List<RedisReads> through = probed.length == 0 ? List.of(redkit.commands()) : List.of(probed);
        return new RedisBreaker(name, redkit.timer(), through, window, window, probeInterval, probesToClose);
    }

    /**
     * A breaker that opens on any call Redis does not answer, the first one of a fresh or just closed breaker too,
     * and closes on the first probe that gets an answer: for a store that must not serve what it cannot check
     * (sessions), where every request after a timeout should fail at once rather than wait for its own.
     *
     * @param probeInterval the pause between background probes ({@link #MIN_PROBE_INTERVAL} - {@link
     *     #MAX_PROBE_INTERVAL})
     */
    public static RedisBreaker openOnAnyFailure(Redkit redkit, String name, Duration probeInterval,
            RedisReads... probed) {
        Objects.requireNonNull(redkit, "redkit");
        Objects.requireNonNull(name, "name");
        Validate.within("breaker probe interval", probeInterval, MIN_PROBE_INTERVAL, MAX_PROBE_INTERVAL);
        List<RedisReads> through = probed.length == 0 ? List.of(redkit.commands()) : List.of(probed);
        // Judged from the first call: with one failure among at most two calls, half of them failed. (A window of
        // one call is what is meant, but Resilience4j's lock-free window of size 1 fails on record.)
        return new RedisBreaker(name, redkit.timer(), through, 2, 1, probeInterval, 1);
    }

    /** Whether a call may go to Redis now; when true, exactly one of succeeded, failed or released must follow. */
    public boolean tryAcquire() {
        return breaker.tryAcquirePermission();
    }

    /** The call got an answer (an error reply included) after {@code nanos}. */
    public void succeeded(long nanos) {
        breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
        if (breaker.getState() == CircuitBreaker.State.OPEN) {
            startProbing(); // opened by something else than a failure: never left without a probe to close it
        }
    }

    /**
     * The call failed after {@code nanos}; only availability failures count against Redis. {@code key} is what the
     * call was about (or null): a probe reads it, so on Cluster it asks the node that failed.
     */
    public void failed(long nanos, Throwable failure, String key) {
        if (key != null && !key.isEmpty()) {
            probeKey = key;
        }
        breaker.onError(nanos, TimeUnit.NANOSECONDS, failure);
        if (breaker.getState() == CircuitBreaker.State.OPEN) {
            startProbing();
        }
        noticeTransition();
    }

    /** The call ended before it reached Redis for a reason of its own: the permission goes back unjudged. */
    public void released() {
        breaker.releasePermission();
    }

    /** The state now. */
    public State state() {
        return switch (breaker.getState()) {
            case CLOSED, DISABLED, METRICS_ONLY -> State.CLOSED;
            default -> answered > 0 ? State.HALF_OPEN : State.OPEN;
        };
    }

    /** Stops probing; a breaker left open stays open. */
    @Override
    public void close() {
        closed = true;
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
            probing.set(false); // the client is closed: nobody calls any more
        }
    }

    /** One background probe; runs on the timer thread and only sends, so it never blocks it. */
    private void probe() {
        if (closed) {
            probing.set(false);
            return;
        }
        CompletableFuture<?>[] replies = new CompletableFuture<?>[probed.size()];
        for (int i = 0; i < replies.length; i++) {
            try {
                replies[i] = probed.get(i).getAsync(probeKey).handle((v, e) -> {
                    if (e != null && !(unwrap(e) instanceof RedisCommandException)) {
                        throw new CompletionException(e); // an error reply is an answer: Redis is there
                    }
                    return v;
                });
            } catch (RuntimeException e) {
                replies[i] = CompletableFuture.failedFuture(e);
            }
        }
        CompletableFuture.allOf(replies).whenComplete((v, e) -> {
            if (e != null) {
                answered = 0;
                scheduleProbe();
            } else if (++answered >= probesToClose) {
                answered = 0;
                // Probing ends before the breaker closes: a failure that reopens it right after must find no
                // probe running, or it would start none and the breaker would stay open for good.
                probing.set(false);
                if (breaker.getState() == CircuitBreaker.State.OPEN) {
                    breaker.transitionToClosedState();
                }
            } else {
                scheduleProbe();
            }
            noticeTransition();
        });
    }

    /** Logs a change of state once, from whichever call or probe sees it first. */
    private void noticeTransition() {
        State now = state();
        State before = lastState.get();
        if (now != before && lastState.compareAndSet(before, now)) {
            log.warn("'{}': Redis breaker {} -> {}", name, before, now);
        }
    }

    private static Throwable unwrap(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    @Override
    public String toString() {
        return "RedisBreaker[" + name + ", " + state() + "]";
    }
}
