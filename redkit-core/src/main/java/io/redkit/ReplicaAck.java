package io.redkit;

/**
 * What a {@code WAIT} for replicas reported: how many replicas the topology knows and holds up (those that had to
 * confirm), and how many did within the timeout. A write the replicas have not confirmed may be lost in a failover:
 * the master that took it can die before it reached them, and a replica without it is promoted.
 *
 * @param required the replicas that had to confirm (0 where the topology knows none: standalone)
 * @param acknowledged how many of them confirmed in time
 */
public record ReplicaAck(int required, int acknowledged) {

    /** Whether every replica that had to confirm did (trivially so when none had to). */
    public boolean confirmed() {
        return acknowledged >= required;
    }
}
