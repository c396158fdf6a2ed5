package io.redkit;

/**
 * Where reads of a {@link RedisReads} go. Only a cache may read from replicas (DESIGN §4.12): a replica lags its
 * master by the replication delay, so it may still return a value the master has already deleted. Locks, limits,
 * sessions and streams read and write the master only, and refuse anything else when they are built.
 */
public enum ReadFrom {
    /** Every read goes to the master: what was written or deleted is seen at once. */
    MASTER,
    /**
     * Reads go to a replica when one is up, else to the master (Sentinel and Cluster; on a standalone server
     * there are no known replicas, and reads go to the server). Faster under load, may be stale.
     */
    REPLICA_PREFERRED
}
