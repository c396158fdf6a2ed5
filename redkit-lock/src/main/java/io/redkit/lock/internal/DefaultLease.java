package io.redkit.lock.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedkitException;
import io.redkit.RedkitTimer;
import io.redkit.lock.Lease;
import io.redkit.lock.LeaseBounds;
import io.redkit.lock.LockLostException;
import io.redkit.lock.LockScripts;
import io.redkit.lock.LossReason;
import io.redkit.lock.ReleaseResult;
import io.redkit.lock.internal.ReplicaConfirmation.Extension;

/**
 * A held lease and its watchdog. Two timers run on the locks' {@link Watchdog}: the extension every ttl/3
 * (owner-checked, asynchronous, on the background profile) and the validity timer at acquired-at + ttl − drift;
 * whichever finds trouble first signals the loss, once. The validity timer signals up to one timer tick early,
 * never late. When replicas must confirm, each extension runs with its {@code WAIT} on a dedicated connection, off
 * the watchdog's thread, and renews the validity only once confirmed.
 *
 * <p>The whole visible state is one atomic reference: held (with its validity deadline), lost (with the loss
 * already built) or released. Every check reads it once, so no thread can see a lease that is half lost: once the
 * flip happened, {@link #isValid()} is false and {@link #ensureHeld()} throws, on every thread. Loss callbacks and
 * the completion of {@link #lost()} run afterwards on the callback executor, never on the watchdog's thread or
 * inside the caller that noticed the loss.
 *
 * <p>A lease taken with {@link LeaseBounds} has no extension timer, only the validity timer: its key lives
 * {@code atMost}, extended by nobody but its holder ({@link #extend(LeaseBounds)}), and its release keeps the key
 * until {@code atLeast} after the acquisition (or the last extension) when that is still ahead.
 */
final class DefaultLease implements Lease {

    private static final Logger log = LoggerFactory.getLogger(DefaultLease.class);

    private sealed interface State permits Held, Lost, Released {
    }

    /** Held until {@code validUntil} on the monotonic clock (pushed forward by each extension). */
    private record Held(long validUntil) implements State {
    }

    /** Lost; the exception every check throws. */
    private record Lost(LockLostException loss) implements State {
    }

    /** Released by its holder. */
    private record Released() implements State {
    }

    private static final Released RELEASED = new Released();


    private final LockRuntime runtime;
    private final LockMetrics.Meters meters;
    private final String name;
    private final String key;
    private final List<String> releaseKeys;
    private final String owner;
    private final boolean fenced;
    private final long token;
    private final long acquiredAt;
    private final long ttlNanos;
    private final long validityNanos;
    private final LeaseBounds bounds;
    /** On the monotonic clock: a release before this keeps the key until then; acquired-at when nothing is kept. */
    private long keepUntil;
    private final AtomicReference<State> state;
    private final CompletableFuture<LockLostException> lost = new CompletableFuture<>();
    private volatile RedkitTimer.Scheduled extension;
    private volatile RedkitTimer.Scheduled expiry;
    private ReleaseResult releaseResult;

    DefaultLease(LockRuntime runtime, LockMetrics.Meters meters, String name, String key, String waitingKey,
            String owner, boolean fenced, long token, long acquiredAt, LeaseBounds bounds) {
        this.runtime = runtime;
        this.meters = meters;
        this.name = name;
        this.key = key;
        this.releaseKeys = List.of(key, waitingKey);
        this.owner = owner;
        this.fenced = fenced;
        this.token = token;
        this.acquiredAt = acquiredAt;
        this.bounds = bounds;
        this.ttlNanos = bounds != null ? bounds.atMost().toNanos() : runtime.config().ttl().toNanos();
        this.validityNanos = ttlNanos - (bounds != null ? bounds.clockDrift() : runtime.config().clockDrift())
                .toNanos();
        this.keepUntil = acquiredAt + (bounds != null ? bounds.atLeast().toNanos() : 0);
        this.state = new AtomicReference<>(new Held(acquiredAt + validityNanos));
    }

    void start() {
        // One timer per lease at a time: with the watchdog, the validity timer runs only while an extension is
        // in flight (the extension fires at ttl/3, long before validity ends). A short hold then costs one
        // schedule and one cancel on the shared timer instead of two each (bench lock). Counted from acquired-at,
        // like the validity: an acquire that took long must not push the first extension past the validity.
        if (bounds == null && runtime.config().watchdog()) {
            scheduleExtension(acquiredAt + ttlNanos / 3 - now());
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
        return state.get() instanceof Held h ? Duration.ofNanos(Math.max(0, h.validUntil() - now())) : Duration.ZERO;
    }

    @Override
    public boolean isValid() {
        return state.get() instanceof Held h && h.validUntil() - now() > 0;
    }

    @Override
    public void ensureHeld() {
        State s = state.get();
        if (s instanceof Held h) {
            if (h.validUntil() - now() > 0) {
                return;
            }
            markLost(LossReason.VALIDITY_EXPIRED, null);
            s = state.get();
        }
        if (s instanceof Lost l) {
            throw thrown(l);
        }
        throw new LockLostException(name, LossReason.RELEASED, null);
    }

    @Override
    public Lease onLost(Consumer<LockLostException> callback) {
        lost.thenAcceptAsync(e -> {
            try {
                callback.accept(e);
            } catch (RuntimeException failure) {
                log.warn("onLost callback of lock '{}' failed", name, failure);
            }
        }, runtime.callbacks());
        return this;
    }

    @Override
    public CompletableFuture<LockLostException> lost() {
        return lost;
    }

    @Override
    public synchronized boolean extend(LeaseBounds next) {
        Objects.requireNonNull(next, "bounds");
        if (bounds == null) {
            throw new IllegalStateException("lease of '" + name + "' was taken without LeaseBounds: the watchdog "
                    + "extends it, or nobody (watchdog(false)); only a bounded lease is extended by its holder");
        }
        if (releaseResult != null || !(state.get() instanceof Held h)) {
            return false;
        }
        if (h.validUntil() - now() <= 0) {
            markLost(LossReason.VALIDITY_EXPIRED, null);
            return false;
        }
        long sentAt = now();
        byte[] ttl = bytes(Long.toString(next.atMost().toMillis()));
        Extension reply;
        try {
            reply = runtime.replicas().active()
                    ? runtime.replicas().extend(key, bytes(owner), ttl, runtime.commands().profile().timeout(), meters)
                    : runtime.commands().eval(LockScripts.EXTEND, List.of(key), bytes(owner), ttl) == 1
                            ? Extension.CONFIRMED : Extension.REFUSED;
        } catch (RedkitException e) {
            markLost(LossReason.EXTENSION_FAILED, e); // the key may have been extended: it expires by its bound
            throw e;
        }
        if (reply == Extension.REFUSED) {
            markLost(LossReason.EXTENSION_REFUSED, null);
            return false;
        }
        if (reply == Extension.UNCONFIRMED) {
            return false; // a failover could bring back the old expiry: the validity stays the confirmed one
        }
        return extendedTo(next, sentAt);
    }

    /* As for the watchdog's extensions: a reply that came after the validity ran out does not bring the lease back. */
    private boolean extendedTo(LeaseBounds next, long sentAt) {
        if (!(state.get() instanceof Held h)) {
            return false;
        }
        if (h.validUntil() - now() <= 0) {
            markLost(LossReason.VALIDITY_EXPIRED, null);
            return false;
        }
        if (!state.compareAndSet(h, new Held(sentAt + next.atMost().toNanos() - next.clockDrift().toNanos()))) {
            return false; // lost meanwhile
        }
        keepUntil = sentAt + next.atLeast().toNanos();
        cancelExpiry();
        scheduleExpiry();
        return true;
    }

    @Override
    public synchronized ReleaseResult release() {
        if (releaseResult != null) {
            return releaseResult;
        }
        cancelTimers();
        long now = now();
        State before = state.get();
        boolean late = !(before instanceof Held h) || h.validUntil() - now <= 0;
        long kept = keepUntil - now;
        long released;
        try {
            // Kept: the key stays, still ours, until atLeast has passed; the owner-checked PEXPIRE says whether
            // it was still ours, as the compare-and-delete does. Nobody is woken: the lock is not free yet.
            released = kept > 0
                    ? runtime.commands().eval(LockScripts.EXTEND, List.of(key), bytes(owner),
                            bytes(Long.toString(ceilMillis(kept))))
                    : runtime.commands().eval(LockScripts.RELEASE, releaseKeys, bytes(owner),
                            bytes(runtime.releaseChannel()));
        } catch (RedkitException e) {
            // The watchdog is stopped and the outcome is unknown or nothing was sent: nothing vouches for the
            // lease any more. The key, if still there, expires by its TTL; release() may be called again.
            markLost(LossReason.RELEASE_FAILED, e, true);
            throw e;
        }
        meters.held(Duration.ofNanos(now - acquiredAt));
        if (late) {
            meters.releasedLate();
        }
        if (released == 1) {
            releaseResult = ReleaseResult.RELEASED;
            if (flip(RELEASED)) {
                lost.completeExceptionally(new ReleasedSignal());
            }
        } else {
            releaseResult = ReleaseResult.LOST;
            markLost(LossReason.RELEASE_FOUND_LOST, null, true);
        }
        return releaseResult;
    }

    @Override
    public void close() {
        if (release() == ReleaseResult.LOST) {
            throw state.get() instanceof Lost l ? thrown(l)
                    : new LockLostException(name, LossReason.RELEASE_FOUND_LOST, null);
        }
    }

    /** The loss, if the lease is lost now; for {@code runLocked}, which must not wait for {@link #lost()}. */
    LockLostException lossOrNull() {
        return state.get() instanceof Lost l ? thrown(l) : null;
    }

    /**
     * A fresh exception per throw, the loss as its cause: the loss itself is shared by every thread that checks,
     * and a caller adding suppressed exceptions to it would change what the others see.
     */
    private LockLostException thrown(Lost lost) {
        return new LockLostException(name, lost.loss().reason(), lost.loss());
    }

    /** Replaces a held state with {@code next}; false when the lease was no longer held. */
    private boolean flip(State next) {
        while (true) {
            State s = state.get();
            if (!(s instanceof Held)) {
                return false;
            }
            if (state.compareAndSet(s, next)) {
                return true;
            }
        }
    }

    /*
     * The loss is built first and published in one step, so a reader sees either a held lease or a lost one
     * with its exception. What follows (timers, meters, log, callbacks) can only be late, never half visible.
     */
    private void markLost(LossReason reason, Throwable cause) {
        markLost(reason, cause, false);
    }

    /**
     * {@code byTheHolder}: the holder's own release found the loss, on the holder's own thread, so {@link #lost()}
     * completes there and is done when release() returns. Anywhere else (the watchdog, another thread's check) it
     * completes on the callback executor, so that no dependent runs on a thread that only looked.
     */
    private void markLost(LossReason reason, Throwable cause, boolean byTheHolder) {
        LockLostException loss = new LockLostException(name, reason, cause);
        if (!flip(new Lost(loss))) {
            return;
        }
        cancelTimers();
        meters.lost(reason);
        log.debug("lease of '{}' lost: {}", name, reason);
        if (byTheHolder) {
            lost.complete(loss);
        } else {
            runtime.callbacks().execute(() -> lost.complete(loss));
        }
    }

    private void cancelTimers() {
        RedkitTimer.Scheduled x = extension;
        if (x != null) {
            x.cancel();
        }
        RedkitTimer.Scheduled y = expiry;
        if (y != null) {
            y.cancel();
        }
    }

    private void scheduleExpiry() {
        if (!(state.get() instanceof Held h)) {
            return;
        }
        // A tick early: the timer fires up to a tick late, and a late loss signal is a broken promise.
        long delay = h.validUntil() - now() - runtime.watchdog().tickNanos();
        try {
            expiry = runtime.watchdog().schedule(this::checkExpiry, delay);
        } catch (RejectedExecutionException e) {
            markLost(LossReason.VALIDITY_EXPIRED, e);
        }
    }

    private void checkExpiry() {
        if (!(state.get() instanceof Held h)) {
            return;
        }
        if (h.validUntil() - now() <= runtime.watchdog().tickNanos()) {
            markLost(LossReason.VALIDITY_EXPIRED, null);
        } else {
            scheduleExpiry(); // extended meanwhile (or a test clock): look again when the new validity ends
        }
    }

    private void scheduleExtension(long delayNanos) {
        if (!(state.get() instanceof Held)) {
            return;
        }
        try {
            extension = runtime.watchdog().schedule(this::extend, delayNanos);
        } catch (RejectedExecutionException e) {
            markLost(LossReason.EXTENSION_FAILED, e);
        }
    }

    private void extend() {
        if (!(state.get() instanceof Held)) {
            return;
        }
        long sentAt = now();
        CompletableFuture<Extension> reply;
        try {
            reply = runtime.replicas().active()
                    ? CompletableFuture.supplyAsync(() -> runtime.replicas().extend(key, bytes(owner), ttlArg(),
                            runtime.background().profile().timeout(), meters), runtime.confirmations())
                    : runtime.background().evalAsync(LockScripts.EXTEND, List.of(key), bytes(owner), ttlArg())
                            .thenApply(extended -> extended == 1 ? Extension.CONFIRMED : Extension.REFUSED);
        } catch (RuntimeException e) {
            markLost(LossReason.EXTENSION_FAILED, e);
            return;
        }
        // Runs on the watchdog's one thread, so the reply's callback below cannot run before this is set.
        cancelExpiry(); // one left by an unconfirmed extension: a single validity timer per lease
        scheduleExpiry();
        reply.whenCompleteAsync((extension, failure) -> {
            cancelExpiry();
            if (failure != null) {
                markLost(LossReason.EXTENSION_FAILED, unwrap(failure));
            } else if (extension == Extension.CONFIRMED) {
                extended(sentAt);
            } else if (extension == Extension.UNCONFIRMED) {
                unconfirmed(sentAt);
            } else {
                markLost(LossReason.EXTENSION_REFUSED, null);
            }
        }, runtime.watchdog().thread());
    }

    /*
     * The master took the extension but too few replicas confirmed it: a failover could bring back the key with
     * its old expiry, or without it. So the validity stays where the last confirmed extension (or the acquisition)
     * put it; the watchdog tries again a third of the TTL after this one, and the validity timer signals the loss
     * if no confirmed extension comes in time.
     */
    private void unconfirmed(long sentAt) {
        if (!(state.get() instanceof Held h)) {
            return;
        }
        if (h.validUntil() - now() <= 0) {
            markLost(LossReason.VALIDITY_EXPIRED, null);
            return;
        }
        scheduleExpiry();
        scheduleExtension(sentAt + ttlNanos / 3 - now());
    }

    private void cancelExpiry() {
        RedkitTimer.Scheduled pending = expiry;
        if (pending != null) {
            pending.cancel();
        }
    }

    private byte[] ttlArg() {
        return bytes(Long.toString(runtime.config().ttl().toMillis()));
    }

    /*
     * Validity runs from when the extension was sent: the server may have applied it at once. But a reply that
     * comes after the validity ran out (the validity timer fires up to a tick late) must not bring the lease back:
     * between the two, isValid() said false, and another holder may have taken the lock and let it go again.
     */
    private void extended(long sentAt) {
        if (!(state.get() instanceof Held h)) {
            return;
        }
        if (h.validUntil() - now() <= 0) {
            markLost(LossReason.VALIDITY_EXPIRED, null);
        } else if (state.compareAndSet(h, new Held(sentAt + validityNanos))) {
            scheduleExtension(sentAt + ttlNanos / 3 - now());
        }
    }

    private long now() {
        return runtime.clock().nanoTime();
    }

    private static long ceilMillis(long nanos) {
        return (nanos + 999_999) / 1_000_000;
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        State s = state.get();
        String shown = s instanceof Held ? "HELD" : s instanceof Lost ? "LOST" : "RELEASED";
        return "Lease[" + name + ", state=" + shown + (fenced ? ", fence=" + token : "") + ", remaining="
                + remaining().toMillis() + " ms]";
    }

    /**
     * Cancels {@link #lost()} on release. {@code CompletableFuture.cancel} would build a {@code
     * CancellationException} with a stack trace for every lease (bench lock: a twentieth of a cycle's CPU); this
     * one has no stack and a fixed message, and {@code isCancelled()} still answers true.
     */
    private static final class ReleasedSignal extends CancellationException {

        private static final long serialVersionUID = 1L;

        ReleasedSignal() {
            super("lease was released");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
