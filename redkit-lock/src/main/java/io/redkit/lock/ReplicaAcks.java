package io.redkit.lock;

/**
 * How many replicas must confirm a lock's acquisition and each watchdog extension ({@code WAIT} after the script)
 * before they count: none, the replicas the client's topology knows ({@link #auto()}, the default), or a number.
 * A lock only its master holds vanishes when that master fails over before replicating it, and the promoted
 * replica hands it to a second holder.
 */
public final class ReplicaAcks {

    /** The kind of confirmation. */
    public enum Mode {
        /** No confirmation: the master's word is enough (it may fail over before its replicas have the lock). */
        NONE,
        /**
         * Every replica the topology knows and does not hold down: Sentinel's replica list of the master, or the
         * replicas of the master of the lock's slot on Cluster; none on a standalone server. Not the number the
         * master reports connected: a replica already cut off from it would make that zero, and the wait a no-op
         * exactly when it matters.
         */
        AUTO,
        /** A fixed number of replicas, whatever the topology knows ({@code WAIT n}). */
        COUNT
    }

    private static final ReplicaAcks NONE = new ReplicaAcks(Mode.NONE, 0);
    private static final ReplicaAcks AUTO = new ReplicaAcks(Mode.AUTO, 0);

    private final Mode mode;
    private final int count;

    private ReplicaAcks(Mode mode, int count) {
        this.mode = mode;
        this.count = count;
    }

    /** No confirmation by replicas. */
    public static ReplicaAcks none() {
        return NONE;
    }

    /** Every replica the client's topology knows (the default; none on a standalone server, so no wait there). */
    public static ReplicaAcks auto() {
        return AUTO;
    }

    /**
     * Exactly {@code replicas} replicas, 1 or more; on Cluster, of the master of the lock's slot.
     *
     * @throws IllegalArgumentException when {@code replicas} is below 1 ({@link #none()} says zero)
     */
    public static ReplicaAcks of(int replicas) {
        if (replicas < 1) {
            throw new IllegalArgumentException("replicaAcks must be at least 1 (ReplicaAcks.none() for no"
                    + " confirmation), was " + replicas);
        }
        return new ReplicaAcks(Mode.COUNT, replicas);
    }

    /** The kind of confirmation. */
    public Mode mode() {
        return mode;
    }

    /** The number of replicas for {@link Mode#COUNT}; 0 otherwise. */
    public int count() {
        return count;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReplicaAcks other && other.mode == mode && other.count == count;
    }

    @Override
    public int hashCode() {
        return mode.hashCode() * 31 + count;
    }

    @Override
    public String toString() {
        return mode == Mode.COUNT ? Integer.toString(count) : mode.name();
    }
}
