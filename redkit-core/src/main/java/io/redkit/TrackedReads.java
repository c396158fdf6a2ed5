package io.redkit;

import java.util.concurrent.CompletableFuture;

/**
 * Reads on a connection whose keys the server tracks ({@code CLIENT TRACKING}): after a GET or MGET of a key on
 * it, a change of that key by any client, its expiry or eviction, reaches the {@link InvalidationListener}: as a
 * RESP3 push on the same connection, or, when the connection speaks RESP2 (a server or proxy that refuses
 * {@code HELLO 3}), as a message on a subscribed connection the invalidations are redirected to. Opened with
 * {@link Redkit#trackedReads}; a near cache keeps only what it read here.
 *
 * <p>The server sends an invalidation at most once per read: after it, the key is no longer tracked until it is
 * read here again. Over RESP3 a push and the replies on this connection arrive in the order the server wrote them,
 * so an invalidation for a write made after a read arrives after that read's reply; over RESP2 the two connections
 * have no order between them, and an invalidation may arrive before the reply of a read it came after: a reader
 * must not keep a reply when an invalidation of its key was heard since it sent the read.
 */
public interface TrackedReads extends RedisReads, AutoCloseable {

    /**
     * Whether tracking is on for the current connection: confirmed by the server since the last connect. While it is
     * not, what is read here is not tracked and must not be kept.
     */
    boolean tracking();

    /**
     * Completes once every invalidation the server sent before the call has reached the listener (a PING on the
     * connection the invalidations arrive on: its reply follows them). After a write by another client has returned,
     * this is the moment from which no copy of the old value survives; fails when that connection is down.
     */
    CompletableFuture<Void> invalidationsDelivered();

    /** Closes the connection; the server forgets what it tracked for it. */
    @Override
    void close();
}
