package io.redkit;

import java.util.List;

/**
 * Receives what the server says about the keys read on a {@link TrackedReads}. Called on the connection's event
 * loop: keep it short and never block.
 */
public interface InvalidationListener {

    /** These keys changed, expired or were evicted since they were read: every copy of them is stale. */
    void invalidated(List<String> keys);

    /**
     * Anything read before now may be stale: the database was flushed, the connection dropped (invalidations sent
     * meanwhile are lost), or tracking was turned on again on a new connection. {@code why} says which, for logs.
     */
    void reset(String why);
}
