package io.redkit.lab.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The redkit-demo service run from its jar as a child JVM: on a free loopback port, pointed at the lab's Redis and
 * PostgreSQL through {@code REDIS_URL} and {@code DATABASE_URL}, its output in a log file whose tail explains a
 * failed start. {@link #close()} kills it (SIGKILL: its state is throwaway), and so does the JVM's exit.
 */
final class DemoService implements AutoCloseable {

    /** How long the service may take to answer its liveness probe; Spring Boot on a busy 2-core box takes ~30 s. */
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STATS_TIMEOUT = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What {@code GET /ops/stats} said about the product cache and the database, and when its answer arrived.
     *
     * @param atNanos {@link System#nanoTime()} when the answer arrived (the state it reports is at most that old)
     * @param breaker the cache's breaker: CLOSED, OPEN or HALF_OPEN
     * @param cacheStatus the cache's health status
     * @param productQueries product queries the service has sent to PostgreSQL so far
     * @param hits cache hits so far
     * @param misses cache misses so far
     */
    record Stats(long atNanos, String breaker, String cacheStatus, long productQueries, long hits, long misses) {
    }

    private final Process process;
    private final Path log;
    private final URI base;
    private final HttpClient http;
    private final Thread killAtExit;

    private DemoService(Process process, Path log, URI base, HttpClient http) {
        this.process = process;
        this.log = log;
        this.base = base;
        this.http = http;
        this.killAtExit = new Thread(process::destroyForcibly, "redkit-demo-kill");
        Runtime.getRuntime().addShutdownHook(killAtExit);
    }

    /** Starts {@code jar} against these servers and returns once it answers its liveness probe. */
    static DemoService start(Path jar, String redisUrl, String jdbcUrl, HttpClient http)
            throws IOException, InterruptedException {
        int port = freePort();
        Path log = Files.createTempFile("redkit-lab-demo-", ".log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "--server.port=" + port, "--server.address=127.0.0.1",
                "--demo.report.enabled=false")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.put("REDIS_URL", redisUrl);
        env.put("DATABASE_URL", jdbcUrl);
        // The URL names its user; credentials from the caller's environment would be taken for the lab's server.
        env.remove("DATABASE_USER");
        env.remove("DATABASE_PASSWORD");
        DemoService service = new DemoService(builder.start(), log, URI.create("http://127.0.0.1:" + port), http);
        try {
            service.awaitLive();
            return service;
        } catch (IOException | InterruptedException | RuntimeException e) {
            service.close();
            throw e;
        }
    }

    /** {@code http://127.0.0.1:PORT} followed by {@code path}. */
    URI uri(String path) {
        return base.resolve(path);
    }

    /** A description for the report. */
    String describe() {
        return "redkit-demo (pid " + process.pid() + ") on " + base;
    }

    /** Asks {@code GET /ops/stats}. */
    Stats stats() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/ops/stats")).timeout(STATS_TIMEOUT)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        long at = System.nanoTime();
        if (response.statusCode() != 200) {
            throw new IOException("GET /ops/stats answered " + response.statusCode());
        }
        JsonNode json = JSON.readTree(response.body());
        return new Stats(at, field(json, "/cache/breaker").asText(), field(json, "/cache/status").asText(),
                field(json, "/db/productQueries").asLong(), field(json, "/cache/hits").asLong(),
                field(json, "/cache/misses").asLong());
    }

    /** Kills the service and deletes its log. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killAtExit);
        } catch (IllegalStateException exiting) {
            // the JVM is already exiting: the hook runs anyway
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitLive() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        HttpRequest probe = HttpRequest.newBuilder(uri("/actuator/health/liveness")).timeout(Duration.ofSeconds(2))
                .GET().build();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redkit-demo exited with code " + process.exitValue()
                        + " before it answered; its log ends with:\n" + logTail());
            }
            try {
                if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // Spring is still starting
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("redkit-demo did not answer " + probe.uri() + " within "
                + STARTUP_TIMEOUT.toSeconds() + " s; its log ends with:\n" + logTail());
    }

    private String logTail() throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    private static JsonNode field(JsonNode json, String pointer) throws IOException {
        JsonNode node = json.at(pointer);
        if (node.isMissingNode() || node.isNull()) {
            throw new IOException("GET /ops/stats has no " + pointer + ": is the jar an older redkit-demo?");
        }
        return node;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
