package io.redkit.lock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Pattern;

import javax.sql.DataSource;

/**
 * Applies a lock's fencing token where it matters, on the resource: a write carries the holder's token and is
 * applied only if the row has seen no newer one ({@code UPDATE … SET …, fence = ? WHERE id = ? AND fence <= ?}).
 * A holder that was paused past its TTL, and whose lock a newer holder took and wrote under, is refused and told
 * so ({@link FencedWrite.Status#STALE}). Plain {@code java.sql}; the upsert uses {@code INSERT … ON CONFLICT}
 * (PostgreSQL, SQLite). Table and column names are checked to be plain identifiers, since SQL cannot bind them.
 */
public final class FenceGuard {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final String table;
    private final String idColumn;
    private final String fenceColumn;

    private FenceGuard(String table, String idColumn, String fenceColumn) {
        this.table = table;
        this.idColumn = idColumn;
        this.fenceColumn = fenceColumn;
    }

    /** A guard on {@code table} (optionally {@code schema.table}) with the columns {@code id} and {@code fence}. */
    public static FenceGuard on(String table) {
        return on(table, "id", "fence");
    }

    /** A guard on {@code table} with the given id and fence columns (a {@code bigint} fence column). */
    public static FenceGuard on(String table, String idColumn, String fenceColumn) {
        Objects.requireNonNull(table, "table");
        String[] parts = table.split("\\.", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException("table must be 'name' or 'schema.name', was '" + table + "'");
        }
        for (String part : parts) {
            requireIdentifier("table", part);
        }
        requireIdentifier("idColumn", idColumn);
        requireIdentifier("fenceColumn", fenceColumn);
        return new FenceGuard(table, idColumn, fenceColumn);
    }

    /**
     * Sets {@code values} on the row {@code id} if its fence is no newer than {@code token}, in the caller's
     * transaction on {@code connection}.
     */
    public FencedWrite update(Connection connection, Object id, long token, Map<String, ?> values)
            throws SQLException {
        List<String> columns = columns(values);
        StringBuilder sql = new StringBuilder("UPDATE ").append(table).append(" SET ");
        for (String c : columns) {
            sql.append(c).append(" = ?, ");
        }
        sql.append(fenceColumn).append(" = ? WHERE ").append(idColumn).append(" = ? AND COALESCE(")
                .append(fenceColumn).append(", 0) <= ?");
        try (PreparedStatement ps = connection.prepareStatement(sql.toString())) {
            int i = bind(ps, columns, values);
            ps.setLong(i++, token);
            ps.setObject(i++, id);
            ps.setLong(i, token);
            if (ps.executeUpdate() == 1) {
                return new FencedWrite(FencedWrite.Status.APPLIED, token, OptionalLong.of(token));
            }
        }
        OptionalLong current = currentFence(connection, id);
        return new FencedWrite(current.isPresent() ? FencedWrite.Status.STALE : FencedWrite.Status.NOT_FOUND,
                token, current);
    }

    /** {@link #update(Connection, Object, long, Map)} on a connection of its own, committed on return. */
    public FencedWrite update(DataSource dataSource, Object id, long token, Map<String, ?> values)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return update(c, id, token, values);
        }
    }

    /**
     * Inserts the row {@code id} with {@code values} and the token, or updates it if its fence is no newer than
     * {@code token}; a newer fence refuses the write as stale.
     */
    public FencedWrite upsert(Connection connection, Object id, long token, Map<String, ?> values)
            throws SQLException {
        List<String> columns = columns(values);
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (").append(idColumn);
        columns.forEach(c -> sql.append(", ").append(c));
        sql.append(", ").append(fenceColumn).append(") VALUES (?");
        columns.forEach(c -> sql.append(", ?"));
        sql.append(", ?) ON CONFLICT (").append(idColumn).append(") DO UPDATE SET ");
        for (String c : columns) {
            sql.append(c).append(" = EXCLUDED.").append(c).append(", ");
        }
        String bare = table.substring(table.indexOf('.') + 1);
        sql.append(fenceColumn).append(" = EXCLUDED.").append(fenceColumn).append(" WHERE COALESCE(").append(bare)
                .append('.').append(fenceColumn).append(", 0) <= EXCLUDED.").append(fenceColumn);
        try (PreparedStatement ps = connection.prepareStatement(sql.toString())) {
            ps.setObject(1, id);
            int i = 2;
            for (String c : columns) {
                ps.setObject(i++, values.get(c));
            }
            ps.setLong(i, token);
            if (ps.executeUpdate() == 1) {
                return new FencedWrite(FencedWrite.Status.APPLIED, token, OptionalLong.of(token));
            }
        }
        return new FencedWrite(FencedWrite.Status.STALE, token, currentFence(connection, id));
    }

    /** {@link #upsert(Connection, Object, long, Map)} on a connection of its own, committed on return. */
    public FencedWrite upsert(DataSource dataSource, Object id, long token, Map<String, ?> values)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return upsert(c, id, token, values);
        }
    }

    private OptionalLong currentFence(Connection connection, Object id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT COALESCE(" + fenceColumn + ", 0) FROM " + table + " WHERE " + idColumn + " = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    private List<String> columns(Map<String, ?> values) {
        Objects.requireNonNull(values, "values");
        List<String> columns = new ArrayList<>(values.keySet());
        for (String c : columns) {
            requireIdentifier("column", c);
            if (c.equalsIgnoreCase(idColumn) || c.equalsIgnoreCase(fenceColumn)) {
                throw new IllegalArgumentException("column '" + c + "' is the id or fence column; the guard sets it");
            }
        }
        return columns;
    }

    private static int bind(PreparedStatement ps, List<String> columns, Map<String, ?> values) throws SQLException {
        int i = 1;
        for (String c : columns) {
            ps.setObject(i++, values.get(c));
        }
        return i;
    }

    private static void requireIdentifier(String what, String name) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " must be a plain SQL identifier ([A-Za-z_][A-Za-z0-9_]*,"
                    + " at most 63), was '" + name + "'");
        }
    }

    @Override
    public String toString() {
        return "FenceGuard[" + table + "." + fenceColumn + " by " + idColumn + "]";
    }
}
