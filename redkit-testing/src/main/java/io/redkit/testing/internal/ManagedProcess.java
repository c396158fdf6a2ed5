package io.redkit.testing.internal;

import io.redkit.testing.RedisReplyException;
import io.redkit.testing.RedisTestingException;
import io.redkit.testing.internal.ConfFile.Directive;
import io.redkit.testing.internal.ServerLauncher.Launch;
import io.redkit.testing.internal.ServerLauncher.PortInUseException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process side of a test server: start with port retries, signals, kill, graceful stop, restart
 * on the same port, and cleanup. Thread-safe; the public {@code RedisServer} delegates here.
 */
public final class ManagedProcess {

    private static final Logger LOG = LoggerFactory.getLogger(ManagedProcess.class);
    private static final String HOST = "127.0.0.1";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(10);
    private static final int PORT_ATTEMPTS = 5;

    private final Launch launch;
    private final boolean clusterBus;
    private final ProcessRegistry.Registration registration;
    private volatile Process process;
    private volatile long lastPid;
    private volatile boolean paused;
    private volatile boolean closed;

    /** Renders the conf file of a server once its directory and port are known. */
    @FunctionalInterface
    public interface ConfTemplate {

        /** Returns the directives for a server living in {@code dir} on {@code port}. */
        List<Directive> render(Path dir, int port);
    }

    /**
     * What a server is, apart from its port and directory.
     *
     * @param binary the executable
     * @param sentinel whether it runs in Sentinel mode
     * @param clusterBus whether it needs its cluster bus port (port + 10000) free as well
     * @param fixedPort the port the caller chose, or 0 for a free one
     * @param credentials admin credentials, or {@code null}
     */
    public record Spec(RedisBinary binary, boolean sentinel, boolean clusterBus, int fixedPort, Credentials credentials,
            Map<String, String> environment) {
    }

    private ManagedProcess(Launch launch, boolean clusterBus, ProcessRegistry.Registration registration, Process process) {
        this.launch = launch;
        this.clusterBus = clusterBus;
        this.registration = registration;
        this.process = process;
        this.lastPid = process.pid();
    }

    /** Starts a server in a fresh directory, on a free port unless the spec fixes one, retrying when a port is stolen. */
    public static ManagedProcess start(Spec spec, ConfTemplate template) {
        Path dir = ProcessRegistry.newServerDir();
        ProcessRegistry.Registration registration = ProcessRegistry.register(dir);
        try {
            for (int attempt = 1; ; attempt++) {
                int port = spec.fixedPort() > 0 ? Ports.reserveExact(spec.fixedPort(), spec.clusterBus()) : Ports.reserve(spec.clusterBus());
                Launch launch = new Launch(spec.binary(), dir, dir.resolve("redis.conf"), spec.sentinel(), port, spec.credentials(),
                        spec.environment());
                ConfFile.write(launch.conf(), template.render(dir, port));
                try {
                    Process process = ServerLauncher.launch(launch, registration, READY_TIMEOUT);
                    LOG.debug("Started redis-server {} pid {} on {}:{}{} in {}", spec.binary().version(), process.pid(), HOST, port,
                            spec.sentinel() ? " (sentinel)" : spec.clusterBus() ? " (cluster)" : "", dir);
                    return new ManagedProcess(launch, spec.clusterBus(), registration, process);
                } catch (PortInUseException e) {
                    // Another process bound the port between our probe and redis' bind: try another one.
                    Ports.release(port, spec.clusterBus());
                    if (spec.fixedPort() > 0 || attempt == PORT_ATTEMPTS) {
                        throw e;
                    }
                    LOG.debug("Port {} was taken before redis-server bound it, retrying", port);
                }
            }
        } catch (RuntimeException e) {
            registration.close();
            FileUtil.deleteRecursively(dir);
            throw e;
        }
    }

    /** Returns the launch description: binary, directory, conf file, port, credentials. */
    public Launch launch() {
        return launch;
    }

    /** Returns the pid of the current process, or of the last one when down. */
    public long pid() {
        return lastPid;
    }

    /** Sends SIGSTOP and waits until the process is stopped; idempotent. */
    public synchronized void pause() {
        requireRunning("pause");
        if (!paused) {
            Signals.send(process.pid(), "STOP");
            Signals.awaitStopped(process.pid(), true);
            paused = true;
        }
    }

    /** Sends SIGCONT to a paused process; idempotent. */
    public synchronized void resume() {
        if (paused && isRunning()) {
            Signals.send(process.pid(), "CONT");
            Signals.awaitStopped(process.pid(), false);
        }
        paused = false;
    }

    /** Tells whether the process is paused. */
    public boolean isPaused() {
        return paused;
    }

    /** Tells whether the process is alive (paused counts as alive). */
    public boolean isRunning() {
        Process current = process;
        return current != null && current.isAlive();
    }

    /** Tells whether the process is alive, not paused and not closed, so that it can answer now. */
    public boolean isHealthy() {
        return !closed && !paused && isRunning();
    }

    /** Tells whether close() was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Kills with SIGKILL (works on a stopped process too) and waits until the process has exited. */
    public synchronized void kill() {
        Process current = process;
        if (current != null && current.isAlive()) {
            current.destroyForcibly();
            ServerLauncher.waitQuietly(current);
            LOG.debug("Killed redis-server pid {} on port {}", current.pid(), launch.port());
        }
        process = null;
        paused = false;
        registration.detach();
    }

    /** Stops with SHUTDOWN NOSAVE, falling back to SIGTERM and then SIGKILL, and waits until exited. */
    public synchronized void stop() {
        Process current = process;
        if (current != null && current.isAlive()) {
            resume();
            // NOW (7.0+) skips waiting for lagging replicas; the connection closes without a reply.
            Object[] shutdown = launch.binary().atLeast(7, 0) ? new Object[] {"SHUTDOWN", "NOSAVE", "NOW"} : new Object[] {"SHUTDOWN", "NOSAVE"};
            boolean shuttingDown;
            try {
                RespConnection.exec(HOST, launch.port(), launch.credentials(), STOP_TIMEOUT, false, shutdown);
                shuttingDown = false; // a reply means the server refused to go down
            } catch (RedisReplyException refused) {
                LOG.debug("SHUTDOWN on port {} refused: {}", launch.port(), refused.getMessage());
                shuttingDown = false;
            } catch (RedisTestingException closed) {
                shuttingDown = true; // the expected outcome: the server closed the connection on its way out
            }
            if (!shuttingDown || !ServerLauncher.waitQuietly(current)) {
                current.destroy();
                ServerLauncher.waitQuietly(current);
            }
        }
        kill();
    }

    /** Kills the process if running and starts it again with the same conf file on the same port. */
    public synchronized void restart() {
        requireOpen("restart");
        kill();
        // The old socket may linger a moment after SIGKILL: a taken port is retried, other failures are not.
        Process restarted = Poll.until("restart of redis-server on port " + launch.port(), RESTART_TIMEOUT, () -> {
            try {
                return ServerLauncher.launch(launch, registration, READY_TIMEOUT);
            } catch (PortInUseException e) {
                throw e;
            } catch (RedisTestingException e) {
                throw new Poll.GiveUp(e);
            }
        });
        process = restarted;
        lastPid = restarted.pid();
        LOG.debug("Restarted redis-server pid {} on port {}", lastPid, launch.port());
    }

    /** Kills the process, deletes the directory and the pid entry, and releases the port. */
    public synchronized void close() {
        if (closed) {
            return;
        }
        kill();
        closed = true;
        registration.close();
        FileUtil.deleteRecursively(launch.dir());
        Ports.release(launch.port(), clusterBus);
    }

    /** Fails with a message naming the action when the server is closed. */
    public void requireOpen(String action) {
        if (closed) {
            throw new IllegalStateException("Cannot " + action + ": server on port " + launch.port() + " is closed");
        }
    }

    private void requireRunning(String action) {
        requireOpen(action);
        if (!isRunning()) {
            throw new IllegalStateException("Cannot " + action + ": server on port " + launch.port() + " is not running");
        }
    }

    /** Describes the state in one word: running, paused, down or closed. */
    public String state() {
        return closed ? "closed" : paused ? "paused" : isRunning() ? "running" : "down";
    }
}
