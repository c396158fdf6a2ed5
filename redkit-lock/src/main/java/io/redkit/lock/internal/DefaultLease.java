package io.redkit.lock.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.redkit.RedkitException;
import io.redkit.lock.Lease;
import io.redkit.lock.LeaseBounds;
import io.redkit.lock.LockLostException;
import io.redkit.lock.LockScripts;
import io.redkit.lock.LossReason;
import io.redkit.lock.ReleaseResult;
import io.redkit.lock.internal.LeaseState.Held;
import io.redkit.lock.internal.ReplicaConfirmation.Extension;

/**
 * A held lease. What every thread sees of it, and its loss, is its {@link LeaseState}; its watchdog's extension and
 * validity timers are its {@link LeaseTimers}; this class is what its holder does with it (extend, release).
 *
 * <p>A lease taken with {@link LeaseBounds} has no extension timer, only the validity timer: its key lives
 * {@code atMost}, extended by nobody but its holder ({@link #extend(LeaseBounds)}), and its release keeps the key
 * until {@code atLeast} after the acquisition (or the last extension) when that is still ahead.
 */
final class DefaultLease implements Lease {

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
    private final LeaseBounds bounds;
    /** On the monotonic clock: a release before this keeps the key until then; acquired-at when nothing is kept. */
    private long keepUntil;
    private final LeaseState state;
    private final LeaseTimers timers;
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
        long validityNanos = ttlNanos - (bounds != null ? bounds.clockDrift() : runtime.config().clockDrift())
                .toNanos();
        this.keepUntil = acquiredAt + (bounds != null ? bounds.atLeast().toNanos() : 0);
        this.state = new LeaseState(runtime, meters, name, acquiredAt + validityNanos, this::cancelTimers);
        this.timers = new LeaseTimers(runtime, meters, key, owner, ttlNanos, validityNanos, state);
    }

    void start() {
        // One timer per lease at a time: with the watchdog, the validity timer runs only while an extension is
        // in flight (the extension fires at ttl/3, long before validity ends). A short hold then costs one
        // schedule and one cancel on the shared timer instead of two each (bench lock). Counted from acquired-at,
        // like the validity: an acquire that took long must not push the first extension past the validity.
        if (bounds == null && runtime.config().watchdog()) {
            timers.scheduleExtension(acquiredAt + ttlNanos / 3 - now());
        } else {
            timers.scheduleExpiry();
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
        return state.remaining();
    }

    @Override
    public boolean isValid() {
        return state.isValid();
    }

    @Override
    public void ensureHeld() {
        state.ensureHeld();
    }

    @Override
    public Lease onLost(Consumer<LockLostException> callback) {
        state.onLost(callback);
        return this;
    }

    @Override
    public CompletableFuture<LockLostException> lost() {
        return state.lost();
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
            state.markLost(LossReason.VALIDITY_EXPIRED, null);
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
            state.markLost(LossReason.EXTENSION_FAILED, e); // the key may have been extended: it expires by its bound
            throw e;
        }
        if (reply == Extension.REFUSED) {
            state.markLost(LossReason.EXTENSION_REFUSED, null);
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
            state.markLost(LossReason.VALIDITY_EXPIRED, null);
            return false;
        }
        if (!state.renew(h, sentAt + next.atMost().toNanos() - next.clockDrift().toNanos())) {
            return false; // lost meanwhile
        }
        keepUntil = sentAt + next.atLeast().toNanos();
        timers.cancelExpiry();
        timers.scheduleExpiry();
        return true;
    }

    @Override
    public synchronized ReleaseResult release() {
        if (releaseResult != null) {
            return releaseResult;
        }
        cancelTimers();
        long now = now();
        boolean late = !(state.get() instanceof Held h) || h.validUntil() - now <= 0;
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
            state.markLost(LossReason.RELEASE_FAILED, e, true);
            throw e;
        }
        meters.held(Duration.ofNanos(now - acquiredAt));
        if (late) {
            meters.releasedLate();
        }
        if (released == 1) {
            releaseResult = ReleaseResult.RELEASED;
            state.released();
        } else {
            releaseResult = ReleaseResult.LOST;
            state.markLost(LossReason.RELEASE_FOUND_LOST, null, true);
        }
        return releaseResult;
    }

    @Override
    public void close() {
        if (release() == ReleaseResult.LOST) {
            LockLostException loss = state.lossOrNull();
            throw loss != null ? loss : new LockLostException(name, LossReason.RELEASE_FOUND_LOST, null);
        }
    }

    /** The loss, if the lease is lost now; for {@code runLocked}, which must not wait for {@link #lost()}. */
    LockLostException lossOrNull() {
        return state.lossOrNull();
    }

    private void cancelTimers() {
        timers.cancel();
    }

    private long now() {
        return runtime.clock().nanoTime();
    }

    private static long ceilMillis(long nanos) {
        return (nanos + 999_999) / 1_000_000;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Lease[" + name + ", state=" + state.shown() + (fenced ? ", fence=" + token : "") + ", remaining="
                + remaining().toMillis() + " ms]";
    }
}
