package io.redkit.lab;

import java.util.Properties;

import org.postgresql.Driver;

import io.redkit.testing.PostgresServer;

/**
 * The PostgreSQL a lab run writes to: one the lab starts itself from the binaries it ships with (and stops
 * afterwards), or one given by JDBC URL ({@code --jdbc}).
 */
public final class PostgresTarget implements AutoCloseable {

    private final String url;
    private final String description;
    private final PostgresServer owned;

    private PostgresTarget(String url, String description, PostgresServer owned) {
        this.url = url;
        this.description = description;
        this.owned = owned;
    }

    /** Starts a private PostgreSQL, or wraps {@code jdbcUrl} when given. */
    public static PostgresTarget of(String jdbcUrl) {
        if (jdbcUrl == null) {
            PostgresServer server = PostgresServer.start();
            return new PostgresTarget(server.jdbcUrl(), "PostgreSQL started by the lab on " + server.host() + ":"
                    + server.port(), server);
        }
        Properties parsed = Driver.parseURL(jdbcUrl, null);
        if (parsed == null) {
            // Not echoed: the URL may carry a password.
            throw new IllegalArgumentException("--jdbc is not a jdbc:postgresql: URL");
        }
        return new PostgresTarget(jdbcUrl, "external PostgreSQL at " + parsed.getProperty("PGHOST") + ":"
                + parsed.getProperty("PGPORT") + "/" + parsed.getProperty("PGDBNAME"), null);
    }

    /** The JDBC URL to connect to. */
    public String url() {
        return url;
    }

    /** A description for the report, without credentials. */
    public String describe() {
        return description;
    }

    /** Stops the PostgreSQL the lab started; leaves an external one alone. */
    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }
}
