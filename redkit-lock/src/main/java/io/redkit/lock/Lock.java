package io.redkit.lock;

import java.time.Duration;
import java.util.Optional;

/**
 * A named lock: a handle, cheap to create, holding no state in Redis until acquired. Busy is a result
 * ({@code Optional.empty()}), not an error; failures of Redis are {@link io.redkit.RedkitException}s. A lock the
 * master took but its replicas did not confirm ({@link LockConfig#replicaAcks()}) is neither: it is given back and
 * every acquiring method throws {@link LockNotReplicatedException} at once, without waiting on, since nobody holds
 * it and a release would not come.
 */
public interface Lock {

    /** The name as given. */
    String name();

    /** The Redis key the lock lives in. */
    String key();

    /**
     * One attempt: a lease when the lock was free, empty when someone holds it.
     *
     * @throws LockNotReplicatedException when it was free but too few replicas confirmed the acquisition
     */
    Optional<Lease> tryAcquire();

    /**
     * Attempts until acquired or {@code wait} has passed, woken by a release (pub/sub) or after a jittered, bounded
     * backoff; never returns later than the deadline by more than one attempt: one round trip, and with replica acks
     * the confirmation's timeout ({@link LockConfig#replicaAckTimeout()}) and the pool's wait for a connection.
     *
     * @throws IllegalArgumentException when {@code wait} is negative or longer than {@link LockConfig#maxWait()}
     * @throws LockNotReplicatedException when it was free but too few replicas confirmed the acquisition
     */
    Optional<Lease> tryAcquire(Duration wait);

    /**
     * One attempt at a lease held within {@code bounds}, for a job on a schedule: the key lives
     * {@link LeaseBounds#atMost()} and the watchdog does not extend it (only {@link Lease#extend(LeaseBounds)}
     * does), and a release earlier than {@link LeaseBounds#atLeast()} after this attempt keeps the key, still ours,
     * until then. Busy is {@code Optional.empty()}.
     *
     * @throws LockNotReplicatedException when it was free but too few replicas confirmed the acquisition
     */
    Optional<Lease> tryAcquire(LeaseBounds bounds);

    /**
     * Waits up to {@link LockConfig#maxWait()} for the lock.
     *
     * @throws LockBusyException when it is still held by someone else after the wait
     * @throws LockNotReplicatedException when it was free but too few replicas confirmed the acquisition
     */
    Lease acquire();

    /**
     * Acquires (waiting up to {@code wait}), runs {@code work} on the calling thread under the watchdog, and
     * releases. When the lease is lost the calling thread is interrupted, and the call ends with
     * {@link LockLostException} whatever the work returned, because the work may have overlapped with another
     * holder's.
     *
     * @throws LockBusyException when the lock could not be acquired within {@code wait}
     * @throws LockNotReplicatedException when it was free but too few replicas confirmed the acquisition (the work
     *     did not run)
     * @throws LockLostException when the lease was lost during the work or found lost at release
     * @throws Exception what the work threw
     */
    <T> T runLocked(Duration wait, LockedWork<T> work) throws Exception;
}
