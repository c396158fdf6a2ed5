package io.redkit;

/**
 * A connection of one's own from the bounded dedicated pool, for blocking reads and other commands that must not
 * share the multiplexed connection. Close it to give it back; a connection on which a command timed out is
 * discarded instead, because the server may still be blocked on it.
 */
public interface DedicatedConnection extends AutoCloseable {

    /** The commands on this connection, with the request profile unless {@link RedisOps#withTimeout} says else. */
    RedisOps ops();

    /** Gives the connection back to the pool (or closes it if it is unhealthy). */
    @Override
    void close();
}
