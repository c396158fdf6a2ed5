package io.redkit.lock.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.util.Timeout;

import io.redkit.RedisOps;
import io.redkit.lock.Lease;
import io.redkit.lock.LockConfig;
import io.redkit.lock.LockLostException;
import io.redkit.lock.LockScripts;
import io.redkit.lock.LossReason;
import io.redkit.lock.ReleaseResult;

/**
 * A held lease and its watchdog. Two timers run on the locks' {@link WatchdogTimer}: the extension every ttl/3
 * (owner-checked, asynchronous, on the background profile) and the validity timer at acquired-at + ttl − drift;
 * whichever finds trouble first signals the loss, once. The validity timer signals up to one timer tick early,
 * never late.
 */
final class DefaultLease implements Lease {

    private static final Logger log = LoggerFactory.getLogger(DefaultLease.class);

    private enum State { HELD, LOST, RELEASED }

    private final DefaultLocks locks;
    private final LockConfig config;
    private final LockMetrics.Meters meters;
    private final String name;
    private final String key;
    private final String waitingKey;
    private final String owner;
    private final boolean fenced;
    private final long token;
    private final long acquiredAt;
    private final long ttlNanos;
    private final long validityNanos;
    private final AtomicReference<State> state = new AtomicReference<>(State.HELD);
    private final CompletableFuture<LockLostException> lost = new CompletableFuture<>();
    private volatile long validUntil;
    private volatile Timeout extension;
    private volatile Timeout expiry;
    private ReleaseResult releaseResult;

    DefaultLease(DefaultLocks locks, LockMetrics.Meters meters, String name, String key, String waitingKey,
            String owner, boolean fenced, long token, long acquiredAt) {
        this.locks = locks;
        this.config = locks.config();
        this.meters = meters;
        this.name = name;
        this.key = key;
        this.waitingKey = waitingKey;
        this.owner = owner;
        this.fenced = fenced;
        this.token = token;
        this.acquiredAt = acquiredAt;
        this.ttlNanos = config.ttl().toNanos();
        this.validityNanos = ttlNanos - config.clockDrift().toNanos();
        this.validUntil = acquiredAt + validityNanos;
    }

    void start() {
        // One timer per lease at a time: with the watchdog, the validity timer runs only while an extension is
        // in flight (the extension fires at ttl/3, long before validity ends). A short hold then costs one
        // schedule and one cancel on the shared scheduler instead of two each (bench lock).
        if (config.watchdog()) {
            scheduleExtension(ttlNanos / 3);
        } else {
            scheduleExpiry();
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public String ownerToken() {
        return owner;
    }

    @Override
    public boolean isFenced() {
        return fenced;
    }

    @Override
    public long fencingToken() {
        if (!fenced) {
            throw new IllegalStateException("lock '" + name + "' is not fenced (Fencing.none()); no token issued");
        }
        return token;
    }

    @Override
    public Duration remaining() {
        if (state.get() != State.HELD) {
            return Duration.ZERO;
        }
        return Duration.ofNanos(Math.max(0, validUntil - config.clock().nanoTime()));
    }

    @Override
    public boolean isValid() {
        return state.get() == State.HELD && validUntil - config.clock().nanoTime() > 0;
    }

    @Override
    public void ensureHeld() {
        State s = state.get();
        if (s == State.RELEASED) {
            throw new IllegalStateException("lease of lock '" + name + "' was released");
        }
        if (s == State.HELD && validUntil - config.clock().nanoTime() <= 0) {
            markLost(LossReason.VALIDITY_EXPIRED, null);
        }
        LockLostException e = lost.getNow(null);
        if (e != null) {
            throw e;
        }
    }

    @Override
    public Lease onLost(Consumer<LockLostException> callback) {
        lost.thenAccept(e -> {
            try {
                callback.accept(e);
            } catch (RuntimeException failure) {
                log.warn("onLost callback of lock '{}' failed", name, failure);
            }
        });
        return this;
    }

    @Override
    public CompletableFuture<LockLostException> lost() {
        return lost;
    }

    @Override
    public synchronized ReleaseResult release() {
        if (releaseResult != null) {
            return releaseResult;
        }
        cancelTimers();
        long now = config.clock().nanoTime();
        boolean late = validUntil - now <= 0 || state.get() == State.LOST;
        long released = locks.redkit().commands().eval(LockScripts.RELEASE, List.of(key, waitingKey), bytes(owner),
                bytes(locks.signals().channel()));
        meters.held(Duration.ofNanos(now - acquiredAt));
        if (late) {
            meters.releasedLate();
        }
        if (released == 1) {
            releaseResult = ReleaseResult.RELEASED;
            if (state.compareAndSet(State.HELD, State.RELEASED)) {
                lost.completeExceptionally(new Released(name));
            }
        } else {
            releaseResult = ReleaseResult.LOST;
            markLost(LossReason.RELEASE_FOUND_LOST, null);
        }
        return releaseResult;
    }

    @Override
    public void close() {
        if (release() == ReleaseResult.LOST) {
            throw lost.getNow(new LockLostException(name, LossReason.RELEASE_FOUND_LOST, null));
        }
    }

    private void markLost(LossReason reason, Throwable cause) {
        if (!state.compareAndSet(State.HELD, State.LOST)) {
            return;
        }
        cancelTimers();
        meters.lost(reason);
        LockLostException e = new LockLostException(name, reason, cause);
        log.debug("lease of '{}' lost: {}", name, reason);
        lost.complete(e);
    }

    private void cancelTimers() {
        Timeout x = extension;
        if (x != null) {
            x.cancel();
        }
        Timeout y = expiry;
        if (y != null) {
            y.cancel();
        }
    }

    private void scheduleExpiry() {
        if (state.get() != State.HELD) {
            return;
        }
        // A tick early: the timer fires up to a tick late, and a late loss signal is a broken promise.
        long delay = validUntil - config.clock().nanoTime() - WatchdogTimer.TICK_NANOS;
        try {
            expiry = locks.watchdog().schedule(this::checkExpiry, delay);
        } catch (RejectedExecutionException e) {
            markLost(LossReason.VALIDITY_EXPIRED, e);
        }
    }

    private void checkExpiry() {
        if (state.get() != State.HELD) {
            return;
        }
        if (validUntil - config.clock().nanoTime() <= WatchdogTimer.TICK_NANOS) {
            markLost(LossReason.VALIDITY_EXPIRED, null);
        } else {
            scheduleExpiry(); // extended meanwhile (or a test clock): look again when the new validity ends
        }
    }

    private void scheduleExtension(long delayNanos) {
        if (state.get() != State.HELD) {
            return;
        }
        try {
            extension = locks.watchdog().schedule(this::extend, delayNanos);
        } catch (RejectedExecutionException e) {
            markLost(LossReason.EXTENSION_FAILED, e);
        }
    }

    private void extend() {
        if (state.get() != State.HELD) {
            return;
        }
        long sentAt = config.clock().nanoTime();
        RedisOps background = locks.redkit().background();
        Duration timeout = background.profile().timeout();
        Duration third = Duration.ofNanos(Math.max(ttlNanos / 3, 1_000_000));
        RedisOps ops = background.withTimeout(timeout.compareTo(third) < 0 ? timeout : third);
        CompletableFuture<Long> reply;
        try {
            reply = ops.evalAsync(LockScripts.EXTEND, List.of(key), bytes(owner),
                    bytes(Long.toString(config.ttl().toMillis())));
        } catch (RuntimeException e) {
            markLost(LossReason.EXTENSION_FAILED, e);
            return;
        }
        // Runs on the watchdog's one thread, so the reply's callback below cannot run before this is set.
        scheduleExpiry();
        reply.whenCompleteAsync((extended, failure) -> {
            Timeout pendingExpiry = expiry;
            if (pendingExpiry != null) {
                pendingExpiry.cancel();
            }
            if (failure != null) {
                markLost(LossReason.EXTENSION_FAILED, unwrap(failure));
            } else if (extended == 1) {
                // Validity runs from when the extension was sent: the server may have applied it at once.
                if (state.get() == State.HELD) {
                    validUntil = sentAt + validityNanos;
                    scheduleExtension(sentAt + ttlNanos / 3 - config.clock().nanoTime());
                }
            } else {
                markLost(LossReason.EXTENSION_REFUSED, null);
            }
        }, locks.watchdog().executor());
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Lease[" + name + ", state=" + state.get() + (fenced ? ", fence=" + token : "") + ", remaining="
                + remaining().toMillis() + " ms]";
    }

    /**
     * Cancels {@link #lost()} on release. {@code CompletableFuture.cancel} would build a {@code
     * CancellationException} with a stack trace for every lease (bench lock: a twentieth of a cycle's CPU); this
     * one has none, and {@code isCancelled()} still answers true.
     */
    private static final class Released extends CancellationException {

        private static final long serialVersionUID = 1L;

        Released(String name) {
            super("lease of lock '" + name + "' was released");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
