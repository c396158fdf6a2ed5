package io.redkit;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;

/**
 * A connection of one's own from the bounded dedicated pool, for blocking reads and other commands that must not
 * share the multiplexed connection. Close it to give it back; a connection on which a command timed out is
 * discarded instead, because the server may still be blocked on it.
 */
public interface DedicatedConnection extends AutoCloseable {

    /** The commands on this connection, with the request profile unless {@link RedisOps#withTimeout} says else. */
    RedisOps ops();

    /**
     * Waits until the replicas have the writes this connection sent so far ({@code WAIT}), for a write that must
     * survive a failover. The replicas that must confirm are those the topology knows and does not hold down, not
     * those the master counts as connected (a replica already cut off from its master would make that zero, and
     * the wait a no-op exactly when it matters): under Sentinel, the Sentinels' replicas of the master not
     * flagged down or disconnected; on Cluster, the replicas of the master of each written key's slot not flagged
     * failing, each master waited for on its own node connection; on a standalone server, none (its replicas, if
     * any, are not known). {@code WAIT} blocks its connection, which is why it is offered here and not on the
     * shared one.
     *
     * @param timeout how long the replicas are given, at most 60 s
     * @param writtenKeys the keys written, which on Cluster name the masters to wait on
     * @return how many replicas had to confirm and how many did
     * @throws RedkitException when Redis could not be asked (the writes' fate is then unknown)
     */
    ReplicaAck awaitReplicas(Duration timeout, Collection<String> writtenKeys);

    /**
     * {@link #awaitReplicas(Duration, Collection)} with a count of the caller's own instead of the topology's: {@code
     * WAIT replicas timeout} on the master (on Cluster, on the master of each written key's slot, each asked for
     * {@code replicas}). For a caller that knows better than the topology, e.g. one replica of several is enough.
     *
     * @param replicas how many replicas must confirm, zero or more (zero sends nothing)
     * @param timeout how long the replicas are given, at most 60 s
     * @param writtenKeys the keys written, which on Cluster name the masters to wait on
     * @return {@code replicas} (per master) as required, and how many confirmed
     * @throws IllegalArgumentException when {@code replicas} is negative
     * @throws RedkitException when Redis could not be asked (the writes' fate is then unknown)
     */
    ReplicaAck awaitReplicas(int replicas, Duration timeout, Collection<String> writtenKeys);

    /**
     * Reads {@code key} where {@link #awaitReplicas} waited for it. On Cluster, from the master the slot map names
     * for its slot, following no redirect: empty when the key is not there, or when that node answers that the slot
     * has moved or is being migrated ({@code MOVED}, {@code ASK}). A write this connection sent was then redirected
     * to another node, which the {@code WAIT} did not ask, and its confirmation says nothing about it. Elsewhere, a
     * plain read on this connection.
     *
     * @throws RedkitException when Redis could not be asked
     */
    Optional<byte[]> getWhereConfirmed(String key);

    /** Gives the connection back to the pool (or closes it if it is unhealthy). */
    @Override
    void close();
}
