package io.redkit.testing;

import io.redkit.testing.internal.ConfFile.Directive;
import io.redkit.testing.internal.Credentials;
import io.redkit.testing.internal.ManagedProcess;
import io.redkit.testing.internal.RedisBinary;
import io.redkit.testing.internal.RespConnection;
import io.redkit.testing.internal.ServerLauncher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One real redis-server process on a free loopback port, with fault controls (pause, kill, restart).
 *
 * <p>All controls are thread-safe. The server has its own directory (conf file, log, data) that
 * {@link #close()} deletes; the process is killed at JVM exit at the latest.
 */
public final class RedisServer implements AutoCloseable {

    static final String HOST = "127.0.0.1";
    static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

    private final ManagedProcess process;
    private final FakeClock clock;

    private RedisServer(ManagedProcess process, FakeClock clock) {
        this.process = process;
        this.clock = clock;
    }

    /** Starts a server with defaults: 127.0.0.1, a free port, no persistence, its own temp directory. */
    public static RedisServer start() {
        return builder().start();
    }

    /** Returns a builder for a server with a chosen port, extra redis.conf directives, cluster mode or a master. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns the host the server listens on, always {@code 127.0.0.1}. */
    public String host() {
        return HOST;
    }

    /** Returns the port the server listens on; it stays the same across restarts. */
    public int port() {
        return process.launch().port();
    }

    /**
     * Moves this server's wall clock by {@code by} (forward when positive), as an NTP step or a resumed VM would:
     * keys expire by it at once. Only for a server built with {@link Builder#fakeClock()}.
     *
     * @return the clock's offset from real time now
     * @throws IllegalStateException when the server was not built with a fake clock
     */
    public Duration jumpClock(Duration by) {
        if (clock == null) {
            throw new IllegalStateException("this server has the real clock; build it with fakeClock()");
        }
        return clock.jump(by);
    }

    /** Whether {@link Builder#fakeClock()} can work here: libfaketime is installed (Linux x86-64). */
    public static boolean fakeClockAvailable() {
        return FakeClock.library().isPresent() && System.getProperty("os.arch", "").matches("amd64|x86_64");
    }

    /** Returns {@code redis://127.0.0.1:<port>}. */
    public String url() {
        return "redis://" + HOST + ":" + port();
    }

    /** Returns the pid of the current process, or of the last one when the server is down. */
    public long pid() {
        return process.pid();
    }

    /** Returns the version of the redis-server binary, for example {@code 7.0.15}. */
    public String version() {
        return process.launch().binary().version();
    }

    /** Returns the redis-server executable this server runs. */
    public Path binary() {
        return process.launch().binary().path();
    }

    /** Returns the server's own directory (conf file, log, data), deleted by {@link #close()}. */
    public Path directory() {
        return process.launch().dir();
    }

    /** Returns the server's log file, inside {@link #directory()}. */
    public Path logFile() {
        return directory().resolve(ServerLauncher.LOG_FILE);
    }

    /** Freezes the process with SIGSTOP: the port still accepts TCP connections but no command is answered. */
    public void pause() {
        process.pause();
    }

    /** Lets a paused process run again with SIGCONT; commands sent meanwhile are answered now. */
    public void resume() {
        process.resume();
    }

    /** Tells whether the server is paused. */
    public boolean isPaused() {
        return process.isPaused();
    }

    /** Kills the process with SIGKILL (no shutdown, no save) and waits until it has exited. */
    public void kill() {
        process.kill();
    }

    /** Stops the server gracefully (SHUTDOWN NOSAVE, else SIGTERM, else SIGKILL) and waits until it has exited. */
    public void stop() {
        process.stop();
    }

    /** Starts the server again on the same port with the same config; kills it first if it is running. */
    public void restart() {
        process.restart();
    }

    /** Tells whether the process is alive (a paused process is running). */
    public boolean isRunning() {
        return process.isRunning();
    }

    /** Resumes the server if paused and restarts it if down, so that the next test finds it serving. */
    public synchronized void heal() {
        process.resume();
        if (!process.isRunning()) {
            process.restart();
        }
    }

    /**
     * Runs one command on a fresh short-lived admin connection, authenticated with the password or
     * ACL user given to the builder, and returns a String, Long, List&lt;Object&gt; or null.
     *
     * @throws RedisReplyException on an error reply
     * @throws RedisTestingException when the server cannot be reached or does not answer within 10 s
     */
    public Object command(String... args) {
        return call(ADMIN_TIMEOUT, false, (Object[]) args);
    }

    /**
     * Cuts this master off from its replicas until the returned handle is closed: writes it takes from now on reach
     * none of them, as in a partition before a failover (see {@link ReplicationCut}).
     *
     * @throws RedisTestingException when the server cannot be reached
     */
    public ReplicationCut cutReplicationLinks() {
        return ReplicationCut.of(this);
    }

    /**
     * The connections {@code CLIENT LIST} shows under the client name {@code name} (what {@code
     * RedkitConfig.clientName} sends), each as its fields ({@code addr}, {@code flags}, {@code cmd}, …): what one
     * client holds, for a test that would otherwise read a server-wide count ({@code connected_clients},
     * {@code blocked_clients}) that any other client moves.
     *
     * @throws RedisTestingException when the server cannot be reached
     */
    public List<Map<String, String>> clientsNamed(String name) {
        Objects.requireNonNull(name, "name");
        List<Map<String, String>> clients = new ArrayList<>();
        for (String line : String.valueOf(command("CLIENT", "LIST")).split("\r?\n")) {
            Map<String, String> fields = new LinkedHashMap<>();
            for (String field : line.strip().split(" ")) {
                int eq = field.indexOf('=');
                if (eq > 0) {
                    fields.put(field.substring(0, eq), field.substring(eq + 1));
                }
            }
            if (name.equals(fields.get("name"))) {
                clients.add(fields);
            }
        }
        return clients;
    }

    /** Removes all keys from all databases (FLUSHALL), for tests that cannot use unique keys. */
    public void flushAll() {
        command("FLUSHALL");
    }

    /** Returns the last {@code lines} lines of the server's log, for error messages. */
    public String logTail(int lines) {
        return ServerLauncher.logTail(directory(), lines);
    }

    /** Kills the process if running, deletes the server's directory and log, and releases its port. */
    @Override
    public void close() {
        process.close();
    }

    Object call(Duration timeout, boolean raw, Object... args) {
        process.requireOpen(String.valueOf(args[0]));
        return RespConnection.exec(HOST, port(), credentials(), timeout, raw, args);
    }

    Credentials credentials() {
        return process.launch().credentials();
    }

    boolean isHealthy() {
        return process.isHealthy();
    }

    /** Describes the server: address, pid and state. */
    @Override
    public String toString() {
        return "RedisServer[" + HOST + ":" + port() + ", pid " + pid() + ", " + process.state() + "]";
    }

    /** Builds a {@link RedisServer}; every setting is optional and validated when set. */
    public static final class Builder {

        // Directives this module manages itself: overriding them would break restart, cleanup or the port logic.
        private static final Set<String> MANAGED = Set.of("port", "bind", "dir", "logfile", "daemonize",
                "cluster-enabled", "cluster-config-file", "replicaof", "slaveof");
        private static final int DEFAULT_CLUSTER_NODE_TIMEOUT_MILLIS = 2000;

        private final List<Directive> args = new ArrayList<>();
        private int port;
        private boolean cluster;
        private boolean sentinel;
        private RedisServer master;
        private Credentials admin;
        private String requirepass;
        private Path binary;
        private boolean fakeClock;

        private Builder() {
        }

        /**
         * Runs the server on a wall clock the test moves with {@link RedisServer#jumpClock}, under libfaketime and
         * on the redis-server of the embedded-redis jar (see {@link FakeClock} for why not Debian's).
         *
         * @throws RedisTestingException at {@link #start()} when libfaketime is not installed
         */
        public Builder fakeClock() {
            this.fakeClock = true;
            return this;
        }

        /** Listens on this port instead of a free one (no retry if it is taken). */
        public Builder port(int port) {
            if (port < 1024 || port > 65535) {
                throw new IllegalArgumentException("port must be in 1024..65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** Adds a redis.conf directive, for example {@code arg("requirepass", "s3cret")}; later ones win. */
        public Builder arg(String name, String... values) {
            Objects.requireNonNull(name, "name");
            String key = name.toLowerCase(java.util.Locale.ROOT);
            if (key.isBlank() || key.startsWith("-")) {
                throw new IllegalArgumentException("directive name must be a bare redis.conf name, was '" + name + "'");
            }
            if (MANAGED.contains(key)) {
                throw new IllegalArgumentException("directive '" + name + "' is managed by redkit-testing: use port(), clusterEnabled() or replicaOf()");
            }
            if (key.equals("requirepass") && values.length == 1) {
                requirepass = values[0].isEmpty() ? null : values[0];
            }
            args.add(new Directive(key, List.of(values)));
            return this;
        }

        /** Runs the server as a Redis Cluster node (cluster-node-timeout 2000 ms unless given with {@link #arg}). */
        public Builder clusterEnabled(boolean enabled) {
            this.cluster = enabled;
            return this;
        }

        /** Makes the server a replica of {@code master}, authenticating with the master's password if it has one. */
        public Builder replicaOf(RedisServer master) {
            this.master = Objects.requireNonNull(master, "master");
            return this;
        }

        /** Authenticates admin connections as this ACL user instead of with {@code requirepass}. */
        public Builder adminCredentials(String user, String password) {
            this.admin = new Credentials(user, Objects.requireNonNull(password, "password"));
            return this;
        }

        /** Runs this redis-server executable instead of the resolved one. */
        public Builder binary(Path redisServer) {
            this.binary = Objects.requireNonNull(redisServer, "redisServer");
            return this;
        }

        Builder sentinel() {
            this.sentinel = true;
            return this;
        }

        /** Starts the server and returns once it answers PING. */
        public RedisServer start() {
            if (cluster && (sentinel || master != null)) {
                throw new IllegalStateException("a cluster node cannot be a sentinel or use replicaOf(); use RedisCluster");
            }
            FakeClock clock = fakeClock ? FakeClock.create() : null;
            RedisBinary resolved = binary != null ? RedisBinary.of(binary)
                    : clock != null ? RedisBinary.of(RedisBinary.embedded()) : RedisBinary.resolve();
            Credentials credentials = admin != null ? admin : requirepass != null ? new Credentials(null, requirepass) : null;
            ManagedProcess.Spec spec = new ManagedProcess.Spec(resolved, sentinel, cluster, port, credentials,
                    clock == null ? Map.of() : clock.environment());
            return new RedisServer(ManagedProcess.start(spec, (dir, p) -> directives(resolved, dir, p)), clock);
        }

        private List<Directive> directives(RedisBinary resolved, Path dir, int port) {
            List<Directive> conf = new ArrayList<>();
            conf.add(Directive.of("bind", HOST));
            conf.add(Directive.of("port", port));
            conf.add(Directive.of("dir", dir));
            conf.add(Directive.of("logfile", dir.resolve(ServerLauncher.LOG_FILE)));
            conf.add(Directive.of("daemonize", "no"));
            if (!sentinel) {
                conf.add(Directive.of("save", ""));
                conf.add(Directive.of("appendonly", "no"));
                // The 7.0 default waits 5 s for more replicas before a diskless full sync; tests want it now.
                conf.add(Directive.of("repl-diskless-sync-delay", 0));
                if (resolved.atLeast(7, 0)) {
                    conf.add(Directive.of("enable-debug-command", "yes"));
                }
            }
            if (cluster) {
                conf.add(Directive.of("cluster-enabled", "yes"));
                conf.add(Directive.of("cluster-config-file", dir.resolve("nodes.conf")));
                conf.add(Directive.of("cluster-node-timeout", DEFAULT_CLUSTER_NODE_TIMEOUT_MILLIS));
            }
            if (master != null) {
                conf.add(Directive.of("replicaof", HOST, master.port()));
                Credentials auth = master.credentials();
                if (auth != null) {
                    conf.add(Directive.of("masterauth", auth.password()));
                    if (auth.user() != null) {
                        conf.add(Directive.of("masteruser", auth.user()));
                    }
                }
            }
            conf.addAll(args);
            return conf;
        }
    }
}
