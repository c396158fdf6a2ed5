package io.redkit.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.testing.PostgresServer;
import io.redkit.testing.RedisServer;

/**
 * One running redkit-demo for a test, started in this JVM the way {@code main} starts it (same {@link Backends}
 * check, same properties), on a real redis-server and a real PostgreSQL, and spoken to over HTTP only.
 */
final class DemoInstance implements AutoCloseable {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    static final ObjectMapper JSON = new ObjectMapper();
    /** The operators' token every test instance is started with: it shows the health details. */
    static final String OPS_TOKEN = "test-ops-token-" + "0123456789abcdef0123456789abcdef";

    private final ConfigurableApplicationContext context;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    private DemoInstance(ConfigurableApplicationContext context) {
        this.context = context;
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        this.base = URI.create("http://127.0.0.1:" + port);
    }

    /** A fresh database on the JVM's shared PostgreSQL server, for one test class's instances. */
    static String freshDatabase() {
        return PostgresServer.shared().createDatabase("demo_" + ProcessHandle.current().pid() + "_"
                + DATABASES.incrementAndGet());
    }

    /** Starts an instance on {@code redis} and the database {@code jdbcUrl}, with extra {@code --name=value} args. */
    static DemoInstance start(RedisServer redis, String jdbcUrl, String... args) {
        List<String> all = new ArrayList<>(List.of("--server.port=0", "--logging.level.root=WARN",
                "--logging.level.io.redkit.demo=INFO", "--demo.ops.token=" + OPS_TOKEN));
        all.addAll(List.of(args));
        return new DemoInstance(DemoApplication.run(Map.of(Backends.REDIS_URL, redis.url(), Backends.DATABASE_URL,
                jdbcUrl), all.toArray(String[]::new)));
    }

    /** Closes the instance, then its Redis; either may be null (its start failed). */
    static void stop(DemoInstance demo, RedisServer redis) {
        try {
            if (demo != null) {
                demo.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    /** The port the service listens on. */
    int port() {
        return base.getPort();
    }

    /** Signs in and returns the session cookie's {@code name=value}. */
    String signIn(String user, String password) {
        HttpResponse<String> login = login(user, password, null);
        if (login.statusCode() != 200) {
            throw new IllegalStateException("sign-in of " + user + " answered " + login.statusCode() + ": "
                    + login.body());
        }
        return cookie(login);
    }

    URI uri(String path) {
        return base.resolve(path);
    }

    HttpResponse<String> get(String path, String... headers) {
        return send(request(path, headers).GET());
    }

    HttpResponse<String> post(String path, String json, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpResponse<String> put(String path, String json, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** {@code POST /login}, with the session cookie {@code cookie} ({@code name=value}) when not null. */
    HttpResponse<String> login(String user, String password, String cookie) {
        String body = "{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}";
        return cookie == null ? post("/login", body) : post("/login", body, "Cookie", cookie);
    }

    /** The {@code name=value} of the response's session cookie. */
    static String cookie(HttpResponse<String> response) {
        return response.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
    }

    /** {@code GET path} as an operator would send it, with the token that shows the health details. */
    HttpResponse<String> asOperator(String path) {
        return get(path, "Authorization", "Bearer " + OPS_TOKEN);
    }

    /** {@code /ops/stats} as JSON. */
    JsonNode stats() {
        return json(get("/ops/stats"));
    }

    /** The product queries this instance has sent to PostgreSQL. */
    long dbQueries() {
        return stats().path("db").path("productQueries").asLong();
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON (" + response.statusCode() + "): " + response.body(), e);
        }
    }

    static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }

    private HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b;
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
