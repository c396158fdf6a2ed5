package io.redkit.lock.redlock;

import java.time.Duration;

import io.redkit.lock.LockLostException;
import io.redkit.lock.LossReason;
import io.redkit.lock.ReleaseResult;

/**
 * A Redlock acquisition: held on a quorum of nodes, valid until acquired-at + ttl − elapsed − drift on the local
 * monotonic clock. It has no watchdog and no fencing token: a Redlock lease can still overlap another after a
 * pause, so guard the resource with a fenced lock if overlap would corrupt it.
 */
public final class RedlockLease implements AutoCloseable {

    private final Redlock redlock;
    private final String name;
    private final String key;
    private final String owner;
    private final int nodesAcquired;
    private final long validUntil;
    private ReleaseResult releaseResult;

    RedlockLease(Redlock redlock, String name, String key, String owner, int nodesAcquired, long validUntil) {
        this.redlock = redlock;
        this.name = name;
        this.key = key;
        this.owner = owner;
        this.nodesAcquired = nodesAcquired;
        this.validUntil = validUntil;
    }

    /** The lock's name. */
    public String name() {
        return name;
    }

    /** The key on every node. */
    public String key() {
        return key;
    }

    /** The owner token stored on every node. */
    public String ownerToken() {
        return owner;
    }

    /** On how many nodes the key was set. */
    public int nodesAcquired() {
        return nodesAcquired;
    }

    /** The validity left by the local monotonic clock; zero once expired or released. */
    public Duration remaining() {
        if (releaseResult != null) {
            return Duration.ZERO;
        }
        return Duration.ofNanos(Math.max(0, validUntil - redlock.clock().nanoTime()));
    }

    /** Whether the validity has not run out and the lease was not released. */
    public boolean isValid() {
        return !remaining().isZero();
    }

    /**
     * Deletes the key on every node that still holds our token: RELEASED when a quorum still did, LOST when not
     * (the lease had expired on too many nodes, and another holder may have acquired meanwhile). Idempotent.
     */
    public synchronized ReleaseResult release() {
        if (releaseResult == null) {
            releaseResult = redlock.releaseEverywhere(key, owner) >= redlock.quorum()
                    ? ReleaseResult.RELEASED : ReleaseResult.LOST;
        }
        return releaseResult;
    }

    /**
     * {@link #release()}, throwing when the lease turned out to be lost, so that try-with-resources never hides it.
     *
     * @throws LockLostException when the release reported {@link ReleaseResult#LOST}
     */
    @Override
    public void close() {
        if (release() == ReleaseResult.LOST) {
            throw new LockLostException(name, LossReason.RELEASE_FOUND_LOST, null);
        }
    }

    @Override
    public String toString() {
        return "RedlockLease[" + name + ", nodes=" + nodesAcquired + ", remaining=" + remaining().toMillis() + " ms]";
    }
}
