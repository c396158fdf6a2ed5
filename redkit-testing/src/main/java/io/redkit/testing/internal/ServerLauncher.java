package io.redkit.testing.internal;

import io.redkit.testing.RedisTestingException;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starts one redis-server process from its conf file and waits until that very process answers. */
public final class ServerLauncher {

    /** Name of the server's log file inside its directory. */
    public static final String LOG_FILE = "redis.log";
    /** Name of the file inside the server's directory that catches what redis-server prints before its log is open. */
    public static final String CONSOLE_FILE = "console.log";

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    private static final int LOG_TAIL_LINES = 30;

    private ServerLauncher() {
    }

    /** Thrown when redis-server exited because another process took its port between probe and bind. */
    public static final class PortInUseException extends RedisTestingException {

        private static final long serialVersionUID = 1L;

        PortInUseException(String message) {
            super(message);
        }
    }

    /**
     * What to launch.
     *
     * @param binary the executable
     * @param dir the server's own directory (conf, log, data)
     * @param conf its conf file
     * @param sentinel whether to run in Sentinel mode
     * @param port the port the conf file names
     * @param credentials admin credentials, or {@code null}
     * @param environment variables added to the process's environment (a fake clock's), often none
     */
    public record Launch(RedisBinary binary, Path dir, Path conf, boolean sentinel, int port, Credentials credentials,
            Map<String, String> environment) {
    }

    /**
     * Starts the process, registers it, and waits up to {@code readyTimeout} until it answers PING and
     * reports its own pid, so that a foreign server already on the port is never mistaken for it.
     */
    public static Process launch(Launch launch, ProcessRegistry.Registration registration, Duration readyTimeout) {
        List<String> command = new ArrayList<>(List.of(launch.binary().path().toString(), launch.conf().toString()));
        if (launch.sentinel()) {
            command.add("--sentinel");
        }
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(launch.dir().toFile())
                    .redirectErrorStream(true).redirectOutput(Redirect.appendTo(launch.dir().resolve(CONSOLE_FILE)
                            .toFile()));
            builder.environment().putAll(launch.environment());
            process = builder.start();
        } catch (IOException e) {
            throw new RedisTestingException("Cannot start " + String.join(" ", command), e);
        }
        registration.attach(process);
        try {
            awaitReady(launch, process, readyTimeout);
            return process;
        } catch (RuntimeException e) {
            process.destroyForcibly();
            waitQuietly(process);
            registration.detach();
            if (e instanceof PortInUseException) {
                throw e;
            }
            throw new RedisTestingException(e.getMessage() + "\n--- log tail of " + launch.dir() + " ---\n" + logTail(launch.dir(), LOG_TAIL_LINES), e);
        }
    }

    private static void awaitReady(Launch launch, Process process, Duration timeout) {
        String expectedPid = "process_id:" + process.pid();
        Poll.until("redis-server pid " + process.pid() + " to answer on 127.0.0.1:" + launch.port(), timeout, () -> {
            if (!process.isAlive()) {
                throw new Poll.GiveUp(exited(launch, process));
            }
            RespConnection.exec("127.0.0.1", launch.port(), launch.credentials(), PROBE_TIMEOUT, false, "PING");
            String info = (String) RespConnection.exec("127.0.0.1", launch.port(), launch.credentials(), PROBE_TIMEOUT, false, "INFO", "server");
            if (!info.contains(expectedPid + "\r")) {
                throw new IllegalStateException("port " + launch.port() + " is answered by another process");
            }
            return true;
        });
    }

    private static RedisTestingException exited(Launch launch, Process process) {
        waitQuietly(process);
        String tail = logTail(launch.dir(), LOG_TAIL_LINES);
        String message = "redis-server exited with code " + process.exitValue() + " before answering on 127.0.0.1:" + launch.port();
        if (tail.contains("Address already in use")) {
            return new PortInUseException(message + ": port taken");
        }
        return new RedisTestingException(message);
    }

    /** Returns the last lines of the server's log, or of its console output when the log was never opened. */
    public static String logTail(Path dir, int lines) {
        String log = FileUtil.tail(dir.resolve(LOG_FILE), lines);
        String console = FileUtil.tail(dir.resolve(CONSOLE_FILE), lines);
        return console.isBlank() ? log : log.isBlank() ? console : log + "\n" + console;
    }

    /** Waits for a killed process to be reaped, so that its port is really free when this returns. */
    public static boolean waitQuietly(Process process) {
        try {
            return process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
