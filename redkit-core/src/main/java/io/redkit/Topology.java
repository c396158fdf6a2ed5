package io.redkit;

/**
 * How the Redis deployment is laid out; chosen from the URL, hidden from feature code.
 */
public enum Topology {
    /** One server (possibly with replicas that redkit does not use). */
    STANDALONE,
    /** A master found through Redis Sentinel, followed across failovers. */
    SENTINEL,
    /** A Redis Cluster, reached through one or more seed nodes. */
    CLUSTER
}
