package io.redkit.testing.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.postgresql.Driver;
import org.postgresql.ds.PGSimpleDataSource;

/** Small JDBC helpers for the test PostgreSQL: data sources from URLs, one-statement calls, password-free URLs for logs. */
public final class Jdbc {

    private Jdbc() {
    }

    /** Returns a data source for a {@code jdbc:postgresql:} URL, failing with the URL masked when it is not one. */
    public static PGSimpleDataSource dataSource(String url) {
        if (url == null || Driver.parseURL(url, null) == null) {
            throw new IllegalArgumentException("not a jdbc:postgresql: URL: " + masked(url));
        }
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(url);
        return dataSource;
    }

    /** Returns {@code url} with {@code name=value} added to its query string. */
    public static String withParameter(String url, String name, String value) {
        return url + (url.contains("?") ? "&" : "?") + name + "=" + value;
    }

    /** Returns the URL with its password replaced by {@code ***}, for logs and messages. */
    public static String masked(String url) {
        return url == null ? null : url.replaceAll("(?i)([?&]password=)[^&]*", "$1***");
    }

    /** Returns {@code name} when it is a plain lower-case SQL identifier, which needs no quoting; fails naming it otherwise. */
    public static String identifier(String what, String name) {
        if (name == null || !name.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException(what + " name must be 1-63 of [a-z0-9_], not starting with a digit, was '" + name + "'");
        }
        return name;
    }

    /** Runs one statement on a connection of its own. */
    public static void execute(DataSource dataSource, String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** Runs a query on a connection of its own and returns the first column of its first row as a long. */
    public static long queryLong(DataSource dataSource, String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                throw new SQLException("no row: " + sql);
            }
            return rs.getLong(1);
        }
    }
}
