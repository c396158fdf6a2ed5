package io.redkit.testing;

import io.redkit.testing.internal.Credentials;
import io.redkit.testing.internal.RespConnection;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * A master whose replicas get nothing more from it: what a network partition between them does, the fault under
 * which a write the master acknowledged is lost when it fails over. Made by {@link RedisServer#cutReplicationLinks()};
 * {@link #close()} lets the replicas back in.
 *
 * <p>A paused replica does not do it (the kernel keeps taking the replication stream into its socket, and it applies
 * the writes when resumed), nor does killing the replica's connection (it connects again at once). So, on one
 * connection opened beforehand, the master is given a password ({@code CONFIG SET requirepass}: open connections stay
 * logged in, the Sentinels' among them) and its replicas' connections are killed ({@code CLIENT KILL TYPE replica}):
 * they cannot log in again. While cut, new connections to the master without its password are refused, admin
 * commands of the harness among them unless the server was given admin credentials.
 */
public final class ReplicationCut implements AutoCloseable {

    private final RedisServer master;
    private final RespConnection connection;
    private final String previousPassword;
    private boolean closed;

    private ReplicationCut(RedisServer master, RespConnection connection, String previousPassword) {
        this.master = master;
        this.connection = connection;
        this.previousPassword = previousPassword;
    }

    static ReplicationCut of(RedisServer master) {
        RespConnection connection = null;
        try {
            connection = RespConnection.open(RedisServer.HOST, master.port(), RedisServer.ADMIN_TIMEOUT);
            Credentials credentials = master.credentials();
            if (credentials != null) {
                connection.call(false, credentials.authCommand());
            }
            List<?> current = (List<?>) connection.call(false, "CONFIG", "GET", "requirepass");
            String previous = current.size() > 1 ? String.valueOf(current.get(1)) : "";
            byte[] secret = new byte[16];
            new SecureRandom().nextBytes(secret);
            connection.call(false, "CONFIG", "SET", "requirepass", HexFormat.of().formatHex(secret));
            connection.call(false, "CLIENT", "KILL", "TYPE", "replica");
            return new ReplicationCut(master, connection, previous);
        } catch (IOException | RuntimeException e) {
            closeQuietly(connection);
            throw new RedisTestingException("Cannot cut the replication links of " + master + ": " + e, e);
        }
    }

    /** The master whose replicas are cut off. */
    public RedisServer master() {
        return master;
    }

    /**
     * Runs one admin command on the master through the connection that made the cut, which stays logged in while
     * new ones without the password are refused.
     */
    public synchronized Object command(String... args) {
        if (closed) {
            throw new IllegalStateException("the cut of " + master + " is closed");
        }
        try {
            return connection.call(false, (Object[]) args);
        } catch (IOException e) {
            throw new RedisTestingException("Cannot run " + args[0] + " on " + master + ": " + e, e);
        }
    }

    /**
     * Gives the master its former password back, so that its replicas log in again and catch up; nothing to do
     * when the master is no longer running (killed as part of the test): it starts again with its own config.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (master.isRunning()) {
                connection.call(false, "CONFIG", "SET", "requirepass", previousPassword);
            }
        } catch (IOException | RuntimeException e) {
            if (master.isRunning() && !master.isPaused()) {
                throw new RedisTestingException("Cannot restore the replication links of " + master + ": " + e, e);
            }
        } finally {
            closeQuietly(connection);
        }
    }

    private static void closeQuietly(RespConnection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (IOException e) {
                // nothing left to release
            }
        }
    }
}
