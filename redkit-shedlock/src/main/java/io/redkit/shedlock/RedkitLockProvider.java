package io.redkit.shedlock;

import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.lock.Fencing;
import io.redkit.lock.Lease;
import io.redkit.lock.LeaseBounds;
import io.redkit.lock.Locks;
import io.redkit.lock.ReleaseResult;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * ShedLock's {@code @SchedulerLock} on redkit's locks: one attempt at a lease bounded by the job's
 * {@code lockAtMostFor} (the key's TTL, never extended by a watchdog) and {@code lockAtLeastFor} (an early unlock
 * keeps the key, owner-checked, until then), with a fresh owner token per run, owner-checked unlock and extension,
 * and the replica confirmation the {@link Locks} are configured with.
 */
public final class RedkitLockProvider implements ExtensibleLockProvider {

    private static final Logger log = LoggerFactory.getLogger(RedkitLockProvider.class);

    private final Locks locks;

    /** A provider taking its locks from {@code locks} (their namespace, replica acks and client). */
    public RedkitLockProvider(Locks locks) {
        this.locks = Objects.requireNonNull(locks, "locks");
    }

    /**
     * One attempt; empty when another instance holds the job's lock.
     *
     * @throws IllegalArgumentException when {@code lockAtMostFor} is shorter than {@link LeaseBounds#MIN_AT_MOST}
     * @throws io.redkit.lock.LockNotReplicatedException when the lock was free but too few replicas confirmed it
     *     (nobody holds it; the job is skipped for this tick, and ShedLock reports the exception)
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        // No fencing: ShedLock has no place for a token, and a counter key per job would be kept for nothing.
        return locks.lock(configuration.getName(), Fencing.none()).tryAcquire(bounds(configuration))
                .map(lease -> new RedkitSimpleLock(configuration, lease));
    }

    private static LeaseBounds bounds(LockConfiguration configuration) {
        return LeaseBounds.of(configuration.getLockAtMostFor(), configuration.getLockAtLeastFor());
    }

    @Override
    public String toString() {
        return "RedkitLockProvider[" + locks + "]";
    }

    /** One run's lease; ShedLock makes it unusable after its unlock or extension. */
    private static final class RedkitSimpleLock extends AbstractSimpleLock {

        private final Lease lease;

        RedkitSimpleLock(LockConfiguration configuration, Lease lease) {
            super(configuration);
            this.lease = lease;
        }

        @Override
        protected void doUnlock() {
            if (lease.release() == ReleaseResult.LOST) {
                // ShedLock's unlock has no result: say it here, since another instance may have run the job too.
                log.warn("lock '{}' was lost before its unlock (lockAtMostFor {} passed?): another instance may "
                        + "have run the job at the same time", lockConfiguration.getName(),
                        lockConfiguration.getLockAtMostFor());
            }
        }

        @Override
        protected Optional<SimpleLock> doExtend(LockConfiguration next) {
            return lease.extend(bounds(next)) ? Optional.of(new RedkitSimpleLock(next, lease)) : Optional.empty();
        }

        @Override
        public String toString() {
            return "RedkitSimpleLock[" + lease + ", " + lockConfiguration + "]";
        }
    }
}
