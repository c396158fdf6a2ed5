package io.redkit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.redkit.testing.PostgresServer;
import io.redkit.testing.RedisServer;

/**
 * {@code main} as a user runs it, in a child JVM: bad configuration stops the start in seconds with one line on
 * stderr; without REDIS_URL and DATABASE_URL it starts its own servers, serves, and stops them on exit.
 */
class DemoStartupIT {

    private static final long START_LIMIT_MILLIS = 15_000;

    record Run(int exitCode, long millis, List<String> stdout, List<String> stderr) {
    }

    @Test
    void anUnreachableRedisFailsTheStartWithOneLine() throws Exception {
        int closed = freePort();
        Run run = runToExit(Map.of("REDIS_URL", "redis://127.0.0.1:" + closed, "DATABASE_URL",
                PostgresServer.shared().jdbcUrl()));

        assertOneLineFailure(run, "cannot use Redis at redis://127.0.0.1:" + closed);
    }

    @Test
    void aWrongRedisPasswordFailsTheStartWithOneLineThatHidesIt() throws Exception {
        try (RedisServer redis = RedisServer.builder().arg("requirepass", "right-one").start()) {
            Run run = runToExit(Map.of("REDIS_URL", "redis://:not-the-password@127.0.0.1:" + redis.port(),
                    "DATABASE_URL", PostgresServer.shared().jdbcUrl()));

            assertOneLineFailure(run, "cannot use Redis at redis://");
            assertThat(String.join("\n", run.stderr()) + String.join("\n", run.stdout()))
                    .doesNotContain("not-the-password");
            assertThat(run.stderr().get(0)).containsAnyOf("WRONGPASS", "invalid username-password");
        }
    }

    @Test
    void anUnreachableDatabaseFailsTheStartWithOneLineThatHidesThePassword() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            int closed = freePort();
            Run run = runToExit(Map.of("REDIS_URL", redis.url(), "DATABASE_URL",
                    "postgres://app:s3cret-pw@127.0.0.1:" + closed + "/shop"));

            assertOneLineFailure(run, "cannot use PostgreSQL at jdbc:postgresql://127.0.0.1:" + closed + "/shop");
            assertThat(run.stderr().get(0)).doesNotContain("s3cret-pw");
        }
    }

    @Test
    void withoutUrlsItStartsItsOwnServersAndStopsThemOnExit() throws Exception {
        Process process = start(Map.of());
        List<String> out = new ArrayList<>();
        BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        drain(process.getErrorStream(), new ArrayList<>());
        Pattern up = Pattern.compile("redkit-demo is up: (http://localhost:\\d+)/");
        String base = null;
        try {
            for (String line; base == null && (line = stdout.readLine()) != null; ) {
                out.add(line);
                Matcher m = up.matcher(line);
                if (m.find()) {
                    base = m.group(1);
                }
            }
            assertThat(base).as("the service printed its URL; output:\n%s", String.join("\n", out)).isNotNull();
            String log = String.join("\n", out);
            assertThat(log).contains("No REDIS_URL: started redis-server", "No DATABASE_URL: started PostgreSQL");
            int redisPort = port(log, "at redis://127.0.0.1:(\\d+)");
            int postgresPort = port(log, "started PostgreSQL at jdbc:postgresql://127.0.0.1:(\\d+)/");

            HttpResponse<String> product = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(base + "/products/1")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(product.statusCode()).isEqualTo(200);
            assertThat(listening(redisPort)).isTrue();
            assertThat(listening(postgresPort)).isTrue();

            process.destroy();  // SIGTERM, as Ctrl-C or a container stop
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(listening(redisPort)).as("the embedded redis-server stopped").isFalse();
            assertThat(listening(postgresPort)).as("the embedded PostgreSQL stopped").isFalse();
        } finally {
            process.destroyForcibly();
        }
    }

    private static void assertOneLineFailure(Run run, String expected) {
        assertThat(run.exitCode()).as("exit code; stderr: %s", run.stderr()).isEqualTo(1);
        assertThat(run.millis()).as("the start failed after %d ms", run.millis()).isLessThan(START_LIMIT_MILLIS);
        assertThat(run.stderr()).as("stderr").hasSize(1);
        assertThat(run.stderr().get(0)).startsWith("redkit-demo: cannot start: ").contains(expected);
        assertThat(run.stdout()).noneMatch(l -> l.contains("Exception") || l.trim().startsWith("at "));
    }

    private static Run runToExit(Map<String, String> env) throws Exception {
        long started = System.nanoTime();
        Process process = start(env);
        List<String> out = new ArrayList<>();
        List<String> err = new ArrayList<>();
        CompletableFuture<Void> o = drain(process.getInputStream(), out);
        CompletableFuture<Void> e = drain(process.getErrorStream(), err);
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the service exited").isTrue();
            o.join();
            e.join();
            return new Run(process.exitValue(), (System.nanoTime() - started) / 1_000_000, out, err);
        } finally {
            process.destroyForcibly();
        }
    }

    /** {@code java -cp <this test's class path> io.redkit.demo.DemoApplication}, with only {@code env} set. */
    private static Process start(Map<String, String> env) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                DemoApplication.class.getName(), "--server.port=0", "--demo.report.enabled=false");
        pb.environment().remove("REDIS_URL");
        pb.environment().remove("DATABASE_URL");
        pb.environment().putAll(env);
        pb.directory(Files.createTempDirectory("redkit-demo-").toFile());
        return pb.start();
    }

    private static CompletableFuture<Void> drain(java.io.InputStream in, List<String> lines) {
        return CompletableFuture.runAsync(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        });
    }

    private static int port(String log, String regex) {
        Matcher m = Pattern.compile(regex).matcher(log);
        assertThat(m.find()).as("%s in the log", regex).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
