package io.redkit.testing;

import io.redkit.testing.internal.Credentials;
import io.redkit.testing.internal.Poll;
import io.redkit.testing.internal.RespConnection;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
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
 *
 * <p>{@link #close()} gives the password back, then waits until every replica cut off is attached again through a
 * whole handshake. A replica whose handshake straddled the restore (its {@code PING} and {@code REPLCONF}s refused,
 * its {@code PSYNC} accepted) is attached without its listening port and capabilities, and the master then stalls
 * its stream ({@code WAIT} never counts it, seen in 1 of 3 runs of a test): such a link, which the master lists
 * with {@code port=0}, is killed until the replica comes back through a clean handshake.
 */
public final class ReplicationCut implements AutoCloseable {

    /** How long {@link #close()} waits for the replicas to be attached again. */
    private static final Duration REATTACH_TIMEOUT = Duration.ofSeconds(20);

    private final RedisServer master;
    private final RespConnection connection;
    private final String previousPassword;
    private final int replicas;
    private boolean closed;

    private ReplicationCut(RedisServer master, RespConnection connection, String previousPassword, int replicas) {
        this.master = master;
        this.connection = connection;
        this.previousPassword = previousPassword;
        this.replicas = replicas;
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
            int attached = replicaPorts(connection).size();
            byte[] secret = new byte[16];
            new SecureRandom().nextBytes(secret);
            connection.call(false, "CONFIG", "SET", "requirepass", HexFormat.of().formatHex(secret));
            connection.call(false, "CLIENT", "KILL", "TYPE", "replica");
            return new ReplicationCut(master, connection, previous, attached);
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
                Poll.until("the replicas of " + master + " to attach again after the cut", REATTACH_TIMEOUT,
                        this::reattached);
            }
        } catch (IOException | RuntimeException e) {
            if (master.isRunning() && !master.isPaused()) {
                throw new RedisTestingException("Cannot restore the replication links of " + master + ": " + e, e);
            }
        } finally {
            closeQuietly(connection);
        }
    }

    // Whether as many replicas as were cut off are attached through a whole handshake; a link attached without
    // one (port 0) is killed, so that the replica tries again now that its handshake cannot be refused.
    private boolean reattached() throws IOException {
        List<Integer> ports = replicaPorts(connection);
        if (ports.contains(0)) {
            connection.call(false, "CLIENT", "KILL", "TYPE", "replica");
            return false;
        }
        return ports.size() >= replicas;
    }

    /** The listening ports of the replicas the master lists as online ({@code slaveN:ip=…,port=…,state=online}). */
    private static List<Integer> replicaPorts(RespConnection connection) throws IOException {
        List<Integer> ports = new ArrayList<>();
        for (String line : String.valueOf(connection.call(false, "INFO", "replication")).split("\r?\n")) {
            if (line.startsWith("slave") && line.contains(":ip=") && line.contains("state=online")) {
                for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                    if (field.startsWith("port=")) {
                        ports.add(Integer.parseInt(field.substring("port=".length()).strip()));
                    }
                }
            }
        }
        return ports;
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
