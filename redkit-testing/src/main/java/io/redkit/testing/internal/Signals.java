package io.redkit.testing.internal;

import io.redkit.testing.RedisTestingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Sends POSIX signals with {@code kill} and reads process state from {@code /proc} where it exists. */
public final class Signals {

    private static final Duration STATE_TIMEOUT = Duration.ofSeconds(2);

    private Signals() {
    }

    /** Sends {@code signal} (STOP, CONT, TERM, KILL) to {@code pid}, failing when kill reports an error. */
    public static void send(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new RedisTestingException("kill -" + signal + " " + pid + " did not return");
            }
            if (kill.exitValue() != 0) {
                String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                throw new RedisTestingException("kill -" + signal + " " + pid + " failed: " + output);
            }
        } catch (IOException e) {
            throw new RedisTestingException("Cannot run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisTestingException("Interrupted sending " + signal + " to " + pid, e);
        }
    }

    /**
     * Waits until the process is (or is no longer) stopped, because a signal is delivered asynchronously
     * and a caller of pause() expects the server frozen when it returns. No-op without /proc.
     */
    public static void awaitStopped(long pid, boolean stopped) {
        if (state(pid).isEmpty()) {
            return;
        }
        Poll.until("pid " + pid + (stopped ? " to stop" : " to continue"), STATE_TIMEOUT,
                () -> state(pid).map(s -> (s == 'T') == stopped).orElse(true));
    }

    /** Returns the one-letter state from /proc/&lt;pid&gt;/stat (R, S, T, Z...), if readable. */
    public static Optional<Character> state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int afterName = stat.lastIndexOf(')');
            return afterName < 0 || afterName + 2 >= stat.length() ? Optional.empty() : Optional.of(stat.charAt(afterName + 2));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Returns the command line of a live process, from /proc or else from ProcessHandle. */
    public static Optional<String> commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return Optional.of(new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').trim());
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.of(pid).flatMap(h -> h.info().commandLine().or(() -> h.info().command()));
        }
    }
}
