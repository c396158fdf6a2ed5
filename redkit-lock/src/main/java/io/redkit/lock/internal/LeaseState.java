package io.redkit.lock.internal;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.lock.LockLostException;
import io.redkit.lock.LossReason;

/**
 * What a lease's holder and every other thread can see of it, and its loss, signalled once.
 *
 * <p>The whole visible state is one atomic reference: held (with its validity deadline), lost (with the loss
 * already built) or released. Every check reads it once, so no thread can see a lease that is half lost: once the
 * flip happened, {@link #isValid()} is false and {@link #ensureHeld()} throws, on every thread. Loss callbacks and
 * the completion of {@link #lost()} run afterwards on the callback executor, never on the watchdog's thread or
 * inside the caller that noticed the loss.
 */
final class LeaseState {

    /* Under the lease's name: where the lease's log lines were before they moved here. */
    private static final Logger log = LoggerFactory.getLogger(DefaultLease.class);

    sealed interface State permits Held, Lost, Released {
    }

    /** Held until {@code validUntil} on the monotonic clock (pushed forward by each extension). */
    record Held(long validUntil) implements State {
    }

    /** Lost; the exception every check throws. */
    record Lost(LockLostException loss) implements State {
    }

    /** Released by its holder. */
    record Released() implements State {
    }

    private static final Released RELEASED = new Released();

    private final LockRuntime runtime;
    private final LockMetrics.Meters meters;
    private final String name;
    /** Stops the lease's timers once it is lost: nothing is left to extend or to watch. */
    private final Runnable stopTimers;
    private final AtomicReference<State> state;
    private final CompletableFuture<LockLostException> lost = new CompletableFuture<>();

    LeaseState(LockRuntime runtime, LockMetrics.Meters meters, String name, long validUntil, Runnable stopTimers) {
        this.runtime = runtime;
        this.meters = meters;
        this.name = name;
        this.stopTimers = stopTimers;
        this.state = new AtomicReference<>(new Held(validUntil));
    }

    State get() {
        return state.get();
    }

    /** Pushes the validity of {@code held} to {@code validUntil}; false when the lease changed meanwhile. */
    boolean renew(Held held, long validUntil) {
        return state.compareAndSet(held, new Held(validUntil));
    }

    Duration remaining() {
        return state.get() instanceof Held h ? Duration.ofNanos(Math.max(0, h.validUntil() - now())) : Duration.ZERO;
    }

    boolean isValid() {
        return state.get() instanceof Held h && h.validUntil() - now() > 0;
    }

    void ensureHeld() {
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

    void onLost(Consumer<LockLostException> callback) {
        lost.thenAcceptAsync(e -> {
            try {
                callback.accept(e);
            } catch (RuntimeException failure) {
                log.warn("onLost callback of lock '{}' failed", name, failure);
            }
        }, runtime.callbacks());
    }

    CompletableFuture<LockLostException> lost() {
        return lost;
    }

    /** The loss, if the lease is lost now; for {@code runLocked}, which must not wait for {@link #lost()}. */
    LockLostException lossOrNull() {
        return state.get() instanceof Lost l ? thrown(l) : null;
    }

    /** Marks the lease released by its holder, if it was still held, and cancels {@link #lost()}. */
    void released() {
        if (flip(RELEASED)) {
            lost.completeExceptionally(new ReleasedSignal());
        }
    }

    /*
     * The loss is built first and published in one step, so a reader sees either a held lease or a lost one
     * with its exception. What follows (timers, meters, log, callbacks) can only be late, never half visible.
     */
    void markLost(LossReason reason, Throwable cause) {
        markLost(reason, cause, false);
    }

    /**
     * {@code byTheHolder}: the holder's own release found the loss, on the holder's own thread, so {@link #lost()}
     * completes there and is done when release() returns. Anywhere else (the watchdog, another thread's check) it
     * completes on the callback executor, so that no dependent runs on a thread that only looked.
     */
    void markLost(LossReason reason, Throwable cause, boolean byTheHolder) {
        LockLostException loss = new LockLostException(name, reason, cause);
        if (!flip(new Lost(loss))) {
            return;
        }
        stopTimers.run();
        meters.lost(reason);
        log.debug("lease of '{}' lost: {}", name, reason);
        if (byTheHolder) {
            lost.complete(loss);
        } else {
            runtime.callbacks().execute(() -> lost.complete(loss));
        }
    }

    /** HELD, LOST or RELEASED, for {@code toString}. */
    String shown() {
        State s = state.get();
        return s instanceof Held ? "HELD" : s instanceof Lost ? "LOST" : "RELEASED";
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

    private long now() {
        return runtime.clock().nanoTime();
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
