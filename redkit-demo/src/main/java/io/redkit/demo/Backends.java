package io.redkit.demo;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.PostgresServer;
import io.redkit.testing.RedisServer;

/**
 * Where the service's Redis and PostgreSQL are. {@code REDIS_URL} and {@code DATABASE_URL} when they are set;
 * otherwise a real redis-server (from the PATH, or the binary in the embedded-redis jar) and a real PostgreSQL
 * (zonky's binaries) started here on free loopback ports and stopped when the service stops. Before Spring starts,
 * a given server is connected to once, so that a wrong address or password stops the start in seconds with one
 * line that says which and why, rather than a page of Spring's errors.
 */
final class Backends implements AutoCloseable {

    static final String REDIS_URL = RedkitConfig.ENV_REDIS_URL;
    static final String DATABASE_URL = "DATABASE_URL";
    private static final Logger log = LoggerFactory.getLogger(Backends.class);
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(3);

    /** A start-up failure, said in one line. */
    static final class StartupException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StartupException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A JDBC address with its credentials, the password masked in {@link #toString()}. */
    record Database(String jdbcUrl, String user, String password) {
        @Override
        public String toString() {
            return jdbcUrl + (user == null ? "" : " as " + user) + (password == null ? "" : " (password ****)");
        }
    }

    private final String redisUrl;
    private final Database database;
    private final RedisServer embeddedRedis;
    private final PostgresServer embeddedPostgres;

    private Backends(String redisUrl, Database database, RedisServer redis, PostgresServer postgres) {
        this.redisUrl = redisUrl;
        this.database = database;
        this.embeddedRedis = redis;
        this.embeddedPostgres = postgres;
    }

    /**
     * Reads {@code REDIS_URL} and {@code DATABASE_URL} from {@code env}: a server given there is connected to once
     * (a wrong address or password fails here, in seconds, before anything else starts); for one not given, a
     * server of our own is started.
     */
    static Backends resolve(Map<String, String> env) {
        String redisUrl = blankToNull(env.get(REDIS_URL));
        Database database = blankToNull(env.get(DATABASE_URL)) == null ? null
                : database(env.get(DATABASE_URL).trim(), env);
        if (redisUrl != null) {
            checkRedis(redisUrl);
        }
        if (database != null) {
            checkDatabase(database);
        }
        RedisServer redis = null;
        PostgresServer postgres = null;
        try {
            if (redisUrl == null) {
                redis = RedisServer.start();
                redisUrl = redis.url();
                log.info("No REDIS_URL: started redis-server {} ({}) at {}; it stops with the service",
                        redis.version(), redis.binary(), redisUrl);
            }
            if (database == null) {
                postgres = PostgresServer.start();
                database = new Database(postgres.jdbcUrl(), postgres.user(), null);
                log.info("No DATABASE_URL: started PostgreSQL at {}; it stops with the service", database);
            }
        } catch (RuntimeException e) {
            closeQuietly(redis);
            closeQuietly(postgres);
            throw new StartupException("cannot start the embedded servers: " + e.getMessage(), e);
        }
        return new Backends(redisUrl, database, redis, postgres);
    }

    private static void checkRedis(String url) {
        RedkitConfig config;
        try {
            config = RedkitConfig.builder().url(url).connectTimeout(CHECK_TIMEOUT).build();
        } catch (RuntimeException e) {
            throw new StartupException("REDIS_URL is not usable: " + e.getMessage(), e);
        }
        try (Redkit redkit = Redkit.create(config)) {
            redkit.commands().exists("redkit-demo:start-check");
        } catch (RuntimeException e) {
            throw new StartupException("cannot use Redis at " + config.maskedUrl() + ": " + rootMessage(e), e);
        }
    }

    private static void checkDatabase(Database database) {
        Properties props = new Properties();
        if (database.user() != null) {
            props.setProperty("user", database.user());
        }
        if (database.password() != null) {
            props.setProperty("password", database.password());
        }
        props.setProperty("connectTimeout", Long.toString(CHECK_TIMEOUT.toSeconds()));
        props.setProperty("loginTimeout", Long.toString(CHECK_TIMEOUT.toSeconds()));
        props.setProperty("socketTimeout", Long.toString(CHECK_TIMEOUT.toSeconds() * 2));
        try (Connection c = DriverManager.getConnection(database.jdbcUrl(), props)) {
            c.isValid((int) CHECK_TIMEOUT.toSeconds());
        } catch (SQLException e) {
            throw new StartupException("cannot use PostgreSQL at " + database + ": " + rootMessage(e), e);
        }
    }

    /** The Spring properties that point the service at these servers. */
    Map<String, Object> properties() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("redkit.url", redisUrl);
        p.put("spring.datasource.url", database.jdbcUrl());
        if (database.user() != null) {
            p.put("spring.datasource.username", database.user());
        }
        if (database.password() != null) {
            p.put("spring.datasource.password", database.password());
        }
        return p;
    }

    String redisUrl() {
        return redisUrl;
    }

    Database database() {
        return database;
    }

    /** Stops the servers started here; those of REDIS_URL and DATABASE_URL are not ours to stop. */
    @Override
    public void close() {
        closeQuietly(embeddedRedis);
        closeQuietly(embeddedPostgres);
    }

    /**
     * {@code postgres://user:password@host:port/database?params} (Heroku's and most platforms' form) or a
     * {@code jdbc:postgresql:} URL, whose credentials may come from {@code DATABASE_USER} / {@code DATABASE_PASSWORD}.
     */
    static Database database(String url, Map<String, String> env) {
        if (url.startsWith("jdbc:postgresql:")) {
            return new Database(url, blankToNull(env.get("DATABASE_USER")), blankToNull(env.get("DATABASE_PASSWORD")));
        }
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new StartupException("DATABASE_URL is not a URL: " + masked(url), e);
        }
        if (!"postgres".equals(uri.getScheme()) && !"postgresql".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new StartupException("DATABASE_URL must be postgres://user:password@host:port/database or"
                    + " jdbc:postgresql://…, was " + masked(url), null);
        }
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            user = URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
            password = parts.length == 2 ? URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : null;
        }
        String jdbc = "jdbc:postgresql://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "")
                + (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return new Database(jdbc, user, password);
    }

    /** The URL with the password of its user info replaced by {@code ****}. */
    static String masked(String url) {
        return url.replaceFirst("^([a-z]+://[^:/@]*:)[^@]*@", "$1****@");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = String.valueOf(e.getMessage());
        if (root != e && root.getMessage() != null && !message.contains(root.getMessage())) {
            message += " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
        }
        return message.replace('\n', ' ');
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                log.debug("closing {}: {}", c, e.toString());
            }
        }
    }
}
