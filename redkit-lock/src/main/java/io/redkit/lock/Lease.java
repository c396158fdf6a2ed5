package io.redkit.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One acquisition of a lock. Ownership is this object, not a thread: pass it to another thread or along a
 * {@link CompletableFuture} chain and release it there. It knows its own validity from the monotonic clock
 * (acquired-at + ttl − drift, renewed by each extension) and learns of loss from the watchdog; the work polls
 * {@link #isValid()}, calls {@link #ensureHeld()} before a side effect, or waits on {@link #lost()}.
 *
 * <p>Closing releases it. A release that finds the lock no longer ours throws {@link LockLostException} from
 * {@link #close()}, so loss is never silent; {@link #release()} reports the same as a value.
 */
public interface Lease extends AutoCloseable {

    /** The lock's name as the caller gave it. */
    String name();

    /** The Redis key, e.g. {@code lock:{job:42}}. */
    String key();

    /** The random owner token stored as the key's value; only it can release or extend the lock. */
    String ownerToken();

    /** Whether this lease carries a fencing token. */
    boolean isFenced();

    /**
     * The fencing token issued with this acquisition: larger than that of every earlier acquisition of the lock.
     * Hand it to the resource ({@code FenceGuard}), which refuses writes with a token older than one it has seen.
     *
     * @throws IllegalStateException when the lock is configured with {@link Fencing#none()}
     */
    long fencingToken();

    /** How long the lease is still valid by the local monotonic clock; zero once lost or expired. */
    Duration remaining();

    /**
     * Whether the lease is still held: not lost, not released, and within its local validity. Changes at the
     * instant the loss is known, on every thread; authoritative where {@link #lost()} may lag.
     */
    boolean isValid();

    /**
     * Returns normally while the lease is valid. Once {@link #isValid()} has been false, it never returns again.
     *
     * @throws LockLostException when it is not held: lost (and the loss is signalled if nobody had yet), or, with
     *     {@link LossReason#RELEASED}, released by this holder
     */
    void ensureHeld();

    /**
     * Runs {@code callback} once when the lease is lost, on the locks' callback executor (never on the watchdog's
     * thread, so a slow callback delays no extension); soon if it is lost already. Not called after a successful
     * release.
     */
    Lease onLost(Consumer<LockLostException> callback);

    /**
     * A signal that completes with the loss when the lease is lost, and is cancelled when the lease is released
     * first: poll {@code isDone()}, or wait on it. A loss the watchdog or another thread's check found completes it
     * on the callback executor, a moment after {@link #isValid()} turned false, so its dependents run there; a loss
     * the holder's own {@link #release()} found completes it before release returns.
     */
    CompletableFuture<LockLostException> lost();

    /**
     * Moves the bounds of a lease taken with {@link Lock#tryAcquire(LeaseBounds)}: owner-checked (and confirmed by
     * the replicas, as its acquisition was), the key now lives {@code bounds.atMost()} from this call, and a release
     * keeps it until {@code bounds.atLeast()} after this call. The local validity runs from this call too.
     *
     * @return true when extended; false when the lease is no longer held (lost, expired, released, or the key is no
     *     longer ours), which it then is for every check, or when the replicas did not confirm the extension (the
     *     lease then keeps its earlier validity)
     * @throws IllegalStateException when the lease is kept by the watchdog (taken without bounds)
     * @throws io.redkit.RedkitException when Redis could not be asked or did not answer in time; the lease is then
     *     lost ({@link LossReason#EXTENSION_FAILED})
     */
    boolean extend(LeaseBounds bounds);

    /**
     * Stops the watchdog and deletes the key if it still holds our token; a lease taken with bounds whose
     * {@link LeaseBounds#atLeast()} has not yet passed instead keeps the key, owner-checked, until it has (an
     * owner-checked {@code PEXPIRE} to what is left of it). Idempotent: a second call returns the first call's
     * result.
     *
     * @throws io.redkit.RedkitException when Redis could not be asked or did not answer in time; the lease is then
     *     lost ({@link LossReason#RELEASE_FAILED}: nothing vouches for it any more, its key expires by its TTL), and
     *     release may be called again
     */
    ReleaseResult release();

    /**
     * {@link #release()}, throwing when the lock turned out to be lost.
     *
     * @throws LockLostException when the release reported {@link ReleaseResult#LOST}
     */
    @Override
    void close();
}
