package io.redkit.testing;

import io.redkit.testing.internal.Jdbc;
import java.sql.SQLException;
import org.postgresql.ds.PGSimpleDataSource;

/** A schema made for one test class (or method) in a PostgreSQL given by URL, dropped with everything in it on close. */
final class PostgresSchema implements AutoCloseable {

    private final String adminUrl;
    private final String name;
    private final PGSimpleDataSource dataSource;

    private PostgresSchema(String adminUrl, String name) {
        this.adminUrl = adminUrl;
        this.name = name;
        this.dataSource = Jdbc.dataSource(adminUrl);
        dataSource.setCurrentSchema(name);
    }

    /** Creates schema {@code name} through {@code adminUrl}. */
    static PostgresSchema create(String adminUrl, String name) {
        run(adminUrl, "CREATE SCHEMA " + Jdbc.identifier("schema", name));
        return new PostgresSchema(adminUrl, name);
    }

    String name() {
        return name;
    }

    PGSimpleDataSource dataSource() {
        return dataSource;
    }

    String jdbcUrl() {
        return Jdbc.withParameter(adminUrl, "currentSchema", name);
    }

    /** Drops the schema and everything in it. */
    @Override
    public void close() {
        run(adminUrl, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }

    private static void run(String adminUrl, String sql) {
        try {
            Jdbc.execute(Jdbc.dataSource(adminUrl), sql);
        } catch (SQLException e) {
            throw new RedisTestingException(sql + " failed on " + Jdbc.masked(adminUrl) + ": " + e.getMessage(), e);
        }
    }
}
