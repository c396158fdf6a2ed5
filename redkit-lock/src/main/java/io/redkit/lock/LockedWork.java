package io.redkit.lock;

/**
 * Work done while holding a lease; it may check the lease and should stop when interrupted.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface LockedWork<T> {

    /** Does the work under {@code lease}. */
    T run(Lease lease) throws Exception;
}
