package io.redkit.stream;

/** How {@link Signals} travel. */
public enum SignalMode {
    /** {@code PUBLISH}/{@code SUBSCRIBE}: on Cluster every signal is copied to every node. */
    PUBSUB,
    /** {@code SPUBLISH}/{@code SSUBSCRIBE} (Redis 7, Cluster): a signal goes to its channel's shard only. */
    SHARDED
}
