package io.redkit.lock;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A schema of its own in the real PostgreSQL at 127.0.0.1:5432 (database {@code test}, user {@code postgres}) for
 * one test class: created before its first test, dropped with everything in it after its last.
 */
final class PostgresSchema implements BeforeAllCallback, AfterAllCallback {

    private final String prefix;
    private volatile String schema;
    private volatile PGSimpleDataSource dataSource;

    PostgresSchema(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws SQLException {
        schema = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = admin().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
        }
        PGSimpleDataSource ds = admin();
        ds.setCurrentSchema(schema);
        dataSource = ds;
    }

    @Override
    public void afterAll(ExtensionContext context) throws SQLException {
        try (Connection c = admin().getConnection(); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    DataSource dataSource() {
        return dataSource;
    }

    String schema() {
        return schema;
    }

    Connection connection() throws SQLException {
        return dataSource.getConnection();
    }

    void execute(String sql) throws SQLException {
        try (Connection c = connection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    long queryLong(String sql) throws SQLException {
        try (Connection c = connection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static PGSimpleDataSource admin() {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {"127.0.0.1"});
        ds.setPortNumbers(new int[] {5432});
        ds.setDatabaseName("test");
        ds.setUser("postgres");
        return ds;
    }
}
