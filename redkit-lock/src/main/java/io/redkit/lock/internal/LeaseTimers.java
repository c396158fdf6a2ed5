package io.redkit.lock.internal;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

import io.redkit.RedkitTimer;
import io.redkit.lock.LockScripts;
import io.redkit.lock.LossReason;
import io.redkit.lock.internal.LeaseState.Held;
import io.redkit.lock.internal.ReplicaConfirmation.Extension;

/**
 * The two timers of one lease, on the locks' {@link Watchdog}: the extension every ttl/3 (owner-checked,
 * asynchronous, on the background profile) and the validity timer at acquired-at + ttl − drift; whichever finds
 * trouble first signals the loss, once. The validity timer signals up to one timer tick early, never late. When
 * replicas must confirm, each extension runs with its {@code WAIT} on a dedicated connection, off the watchdog's
 * thread, and renews the validity only once confirmed.
 */
final class LeaseTimers {

    private final LockRuntime runtime;
    private final LockMetrics.Meters meters;
    private final String key;
    private final String owner;
    private final long ttlNanos;
    private final long validityNanos;
    private final LeaseState state;
    private volatile RedkitTimer.Scheduled extension;
    private volatile RedkitTimer.Scheduled expiry;

    LeaseTimers(LockRuntime runtime, LockMetrics.Meters meters, String key, String owner, long ttlNanos,
            long validityNanos, LeaseState state) {
        this.runtime = runtime;
        this.meters = meters;
        this.key = key;
        this.owner = owner;
        this.ttlNanos = ttlNanos;
        this.validityNanos = validityNanos;
        this.state = state;
    }

    /** Cancels both timers: the lease is released or lost. */
    void cancel() {
        RedkitTimer.Scheduled x = extension;
        if (x != null) {
            x.cancel();
        }
        RedkitTimer.Scheduled y = expiry;
        if (y != null) {
            y.cancel();
        }
    }

    void scheduleExpiry() {
        if (!(state.get() instanceof Held h)) {
            return;
        }
        // A tick early: the timer fires up to a tick late, and a late loss signal is a broken promise.
        long delay = h.validUntil() - now() - runtime.watchdog().tickNanos();
        try {
            expiry = runtime.watchdog().schedule(this::checkExpiry, delay);
        } catch (RejectedExecutionException e) {
            state.markLost(LossReason.VALIDITY_EXPIRED, e);
        }
    }

    void cancelExpiry() {
        RedkitTimer.Scheduled pending = expiry;
        if (pending != null) {
            pending.cancel();
        }
    }

    void scheduleExtension(long delayNanos) {
        if (!(state.get() instanceof Held)) {
            return;
        }
        try {
            extension = runtime.watchdog().schedule(this::extend, delayNanos);
        } catch (RejectedExecutionException e) {
            state.markLost(LossReason.EXTENSION_FAILED, e);
        }
    }

    private void checkExpiry() {
        if (!(state.get() instanceof Held h)) {
            return;
        }
        if (h.validUntil() - now() <= runtime.watchdog().tickNanos()) {
            state.markLost(LossReason.VALIDITY_EXPIRED, null);
        } else {
            scheduleExpiry(); // extended meanwhile (or a test clock): look again when the new validity ends
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
            state.markLost(LossReason.EXTENSION_FAILED, e);
            return;
        }
        // Runs on the watchdog's one thread, so the reply's callback below cannot run before this is set.
        cancelExpiry(); // one left by an unconfirmed extension: a single validity timer per lease
        scheduleExpiry();
        reply.whenCompleteAsync((extension, failure) -> {
            cancelExpiry();
            if (failure != null) {
                state.markLost(LossReason.EXTENSION_FAILED, unwrap(failure));
            } else if (extension == Extension.CONFIRMED) {
                extended(sentAt);
            } else if (extension == Extension.UNCONFIRMED) {
                unconfirmed(sentAt);
            } else {
                state.markLost(LossReason.EXTENSION_REFUSED, null);
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
            state.markLost(LossReason.VALIDITY_EXPIRED, null);
            return;
        }
        scheduleExpiry();
        scheduleExtension(sentAt + ttlNanos / 3 - now());
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
            state.markLost(LossReason.VALIDITY_EXPIRED, null);
        } else if (state.renew(h, sentAt + validityNanos)) {
            scheduleExtension(sentAt + ttlNanos / 3 - now());
        }
    }

    private byte[] ttlArg() {
        return bytes(Long.toString(runtime.config().ttl().toMillis()));
    }

    private long now() {
        return runtime.clock().nanoTime();
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
