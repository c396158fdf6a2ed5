package io.redkit.lock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import io.redkit.Outcome;
import io.redkit.RedkitException;
import io.redkit.lock.FencingTokenSource;

/**
 * Strict fencing tokens from a PostgreSQL sequence: {@code nextval} never goes back, even when a Redis failover
 * promotes a replica that missed the last {@code INCR} of the lock's counter. Select it per lock with
 * {@code locks.lock(name, Fencing.external(tokens))}. Costs one database round trip per acquisition. The sequence
 * must have {@code CACHE 1} (the default, and what {@link #createIfMissing()} makes): with a larger cache each
 * session hands out its own block, and tokens from two sessions are no longer ordered by time.
 */
public final class PostgresSequenceTokens implements FencingTokenSource {

    private static final Pattern QUALIFIED = Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final DataSource dataSource;
    private final String sequence;

    private PostgresSequenceTokens(DataSource dataSource, String sequence) {
        this.dataSource = dataSource;
        this.sequence = sequence;
    }

    /** Tokens from {@code sequence} (optionally {@code schema.name}) reached through {@code dataSource}. */
    public static PostgresSequenceTokens of(DataSource dataSource, String sequence) {
        Objects.requireNonNull(dataSource, "dataSource");
        if (sequence == null || !QUALIFIED.matcher(sequence).matches()) {
            throw new IllegalArgumentException("sequence must be a plain, optionally schema-qualified SQL identifier,"
                    + " was '" + sequence + "'");
        }
        return new PostgresSequenceTokens(dataSource, sequence);
    }

    /** Creates the sequence ({@code CACHE 1}) unless it exists. */
    public PostgresSequenceTokens createIfMissing() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE SEQUENCE IF NOT EXISTS " + sequence + " CACHE 1");
        }
        return this;
    }

    /**
     * {@code nextval} of the sequence.
     *
     * @throws RedkitException with outcome NOT_EXECUTED when PostgreSQL cannot issue one (no lock is taken)
     */
    @Override
    public long next(String lockName) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT nextval(?::regclass)")) {
            ps.setString(1, sequence);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new RedkitException("no fencing token for lock '" + lockName + "' from sequence " + sequence
                    + ": " + e.getMessage() + "; lock not acquired", Outcome.NOT_EXECUTED, e);
        }
    }

    @Override
    public String toString() {
        return "PostgresSequenceTokens[" + sequence + "]";
    }
}
