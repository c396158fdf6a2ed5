package io.redkit.lock;

import java.util.Objects;

import io.redkit.Redkit;
import io.redkit.lock.internal.DefaultLocks;

/**
 * Owner-token locks on Redis in the seeds' wire format ({@code SET lock:{name} <token> NX PX ttl},
 * compare-and-delete release), so a Go or Node service using the same scheme shares them. One per process and
 * configuration; closing it stops its watchdogs (held leases then expire by their TTL).
 */
public interface Locks extends AutoCloseable {

    /** Builds the locks of {@code redkit} with {@code config}. */
    static Locks create(Redkit redkit, LockConfig config) {
        return new DefaultLocks(Objects.requireNonNull(redkit, "redkit"), Objects.requireNonNull(config, "config"));
    }

    /**
     * The lock of {@code name} with the configured fencing.
     *
     * @throws IllegalArgumentException when {@code name} is null or blank
     */
    Lock lock(String name);

    /** The lock of {@code name} with its own fencing, e.g. a PostgreSQL sequence for a lock guarding money. */
    Lock lock(String name, Fencing fencing);

    /** The configuration. */
    LockConfig config();

    /** Stops the watchdogs and the release subscription; leases still held expire by their TTL. */
    @Override
    void close();
}
