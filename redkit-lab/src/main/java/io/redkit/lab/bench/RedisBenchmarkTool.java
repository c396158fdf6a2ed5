package io.redkit.lab.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code redis-benchmark} (Debian's redis-tools) found on the PATH, run for a ceiling: the same command at the
 * same concurrency ({@code -c callers}, one request in flight per connection: {@code -P 1}), parsed from
 * {@code --csv}. Each connection is its own socket, unlike the contenders that multiplex one, so it is the
 * server's limit for that concurrency rather than a like-for-like client.
 */
final class RedisBenchmarkTool {

    static final String NAME = "redis-benchmark";
    private static final long TIMEOUT_SECONDS = 120;

    private final Path binary;
    private final String version;

    private RedisBenchmarkTool(Path binary, String version) {
        this.binary = binary;
        this.version = version;
    }

    /** The tool on the PATH, or empty. */
    static Optional<RedisBenchmarkTool> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, NAME);
            if (Files.isExecutable(candidate)) {
                String version;
                try {
                    version = run(candidate, List.of("--version")).strip();
                } catch (IOException e) {
                    version = NAME + " (version unknown: " + e.getMessage() + ")";
                }
                return Optional.of(new RedisBenchmarkTool(candidate, version));
            }
        }
        return Optional.empty();
    }

    /** Why a ceiling is missing when the tool is. */
    static String missingReason() {
        return NAME + " not found on PATH (Debian/Ubuntu: apt-get install redis-tools)";
    }

    String version() {
        return version;
    }

    /** The parsed result of one run: requests per second and p50/p99 in microseconds. */
    record Result(double opsPerS, double p50Us, double p99Us, String command) {
    }

    /**
     * Runs each step of {@code ceiling} with {@code requests} requests over {@code callers} connections and combines
     * them as {@link Ceiling} describes: the op's rate is the harmonic sum of the steps' rates.
     */
    Result run(BenchEnv env, Ceiling ceiling, int callers, long requests) throws IOException {
        List<Result> steps = new ArrayList<>();
        for (Ceiling.Step step : ceiling.steps()) {
            hook(() -> step.before(env, requests), "preparing");
            try {
                steps.add(runStep(env, step.args(requests), callers, requests));
            } finally {
                hook(() -> step.after(env, requests), "cleaning up after");
            }
        }
        return combine(steps);
    }

    private interface Hook {
        void run() throws Exception;
    }

    private static void hook(Hook hook, String what) throws IOException {
        try {
            hook.run();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + what + " a " + NAME + " step", e);
        } catch (Exception e) {
            throw new IOException(what + " a " + NAME + " step failed: " + e.getMessage(), e);
        }
    }

    /** The steps of one op run back to back: rate 1 / Σ 1/rateᵢ, latencies added, commands joined. */
    static Result combine(List<Result> steps) {
        double secondsPerOp = 0;
        double p50 = 0;
        double p99 = 0;
        List<String> commands = new ArrayList<>();
        for (Result r : steps) {
            secondsPerOp += 1 / r.opsPerS();
            p50 += r.p50Us();
            p99 += r.p99Us();
            commands.add(r.command());
        }
        return new Result(1 / secondsPerOp, p50, p99, String.join(" + ", commands));
    }

    private Result runStep(BenchEnv env, List<String> step, int callers, long requests) throws IOException {
        List<String> args = new ArrayList<>(List.of("-h", env.host(), "-p", String.valueOf(env.port()),
                "-c", String.valueOf(callers), "-n", String.valueOf(requests), "-P", "1", "--csv"));
        if (env.password() != null) {
            args.add("-a");
            args.add(env.password());
        }
        args.addAll(step);
        String out = run(binary, args);
        String command = NAME + " -c " + callers + " -n " + requests + " -P 1 " + String.join(" ", step);
        return parse(out, command);
    }

    /** Parses the first data line of {@code --csv} output (redis-benchmark 6.2+ prints p50 and p99 there). */
    static Result parse(String csv, String command) {
        for (String line : csv.split("\\R")) {
            List<String> cells = cells(line);
            if (cells.size() >= 7 && !cells.get(0).equals("test")) {
                try {
                    return new Result(Double.parseDouble(cells.get(1)), Double.parseDouble(cells.get(4)) * 1000,
                            Double.parseDouble(cells.get(6)) * 1000, command);
                } catch (NumberFormatException e) {
                    throw new IllegalStateException("unexpected " + NAME + " line: " + line, e);
                }
            }
        }
        throw new IllegalStateException(NAME + " printed no result: " + csv.strip());
    }

    private static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        for (String cell : line.strip().split(",")) {
            cells.add(cell.replace("\"", "").strip());
        }
        return cells;
    }

    private static String run(Path binary, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(NAME + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + NAME, e);
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(NAME + " exited with " + process.exitValue() + ": " + text.strip());
        }
        return text;
    }
}
