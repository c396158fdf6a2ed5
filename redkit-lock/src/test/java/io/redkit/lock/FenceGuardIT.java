package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.lock.jdbc.FenceGuard;
import io.redkit.lock.jdbc.FencedWrite;
import io.redkit.testing.PostgresExtension;

/** The fence guard against a real PostgreSQL: newer or equal tokens write, older ones are refused as stale. */
class FenceGuardIT {

    @RegisterExtension
    static final PostgresExtension pg = PostgresExtension.create();

    private static final FenceGuard GUARD = FenceGuard.on("account");

    @BeforeAll
    static void createTable() throws Exception {
        pg.execute("CREATE TABLE account (id bigint PRIMARY KEY, owner text, balance bigint, fence bigint)");
    }

    @Test
    void newerAndEqualTokensWriteAndAnOlderOneIsReportedStale() throws Exception {
        pg.execute("INSERT INTO account VALUES (1, 'ann', 100, 5)");

        FencedWrite newer = GUARD.update(pg.dataSource(), 1L, 7, Map.of("balance", 120L));
        FencedWrite same = GUARD.update(pg.dataSource(), 1L, 7, Map.of("balance", 130L));
        FencedWrite older = GUARD.update(pg.dataSource(), 1L, 6, Map.of("balance", 999L));

        assertThat(newer.status()).isEqualTo(FencedWrite.Status.APPLIED);
        assertThat(same.applied()).isTrue();
        assertThat(older.stale()).isTrue();
        assertThat(older.token()).isEqualTo(6);
        assertThat(older.currentFence()).hasValue(7);
        assertThat(row(1)).isEqualTo("ann/130/7");
    }

    @Test
    void missingRowIsNotFoundNotStale() throws Exception {
        FencedWrite write = GUARD.update(pg.dataSource(), 404L, 1, Map.of("balance", 1L));
        assertThat(write.status()).isEqualTo(FencedWrite.Status.NOT_FOUND);
        assertThat(write.currentFence()).isEmpty();
    }

    @Test
    void upsertInsertsThenUpdatesAndRefusesAStaleToken() throws Exception {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("owner", "bob");
        values.put("balance", 10L);
        assertThat(GUARD.upsert(pg.dataSource(), 2L, 3, values).applied()).isTrue();
        values.put("balance", 20L);
        assertThat(GUARD.upsert(pg.dataSource(), 2L, 4, values).applied()).isTrue();
        values.put("balance", 666L);
        FencedWrite stale = GUARD.upsert(pg.dataSource(), 2L, 3, values);

        assertThat(stale.status()).isEqualTo(FencedWrite.Status.STALE);
        assertThat(stale.currentFence()).hasValue(4);
        assertThat(row(2)).isEqualTo("bob/20/4");
    }

    @Test
    void writeJoinsTheCallersTransaction() throws Exception {
        pg.execute("INSERT INTO account VALUES (3, 'cy', 0, 1)");
        try (Connection c = pg.connection()) {
            c.setAutoCommit(false);
            assertThat(GUARD.update(c, 3L, 2, Map.of("balance", 50L)).applied()).isTrue();
            c.rollback();
        }
        assertThat(row(3)).isEqualTo("cy/0/1");
    }

    @Test
    void namesThatAreNotPlainIdentifiersAreRefused() {
        assertThatThrownBy(() -> FenceGuard.on("account; DROP TABLE account")).isInstanceOf(
                IllegalArgumentException.class).hasMessageContaining("table");
        assertThatThrownBy(() -> FenceGuard.on("account", "id", "fence--")).hasMessageContaining("fenceColumn");
        assertThatThrownBy(() -> GUARD.update(pg.dataSource(), 1L, 1, Map.of("balance = 0, owner", 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column");
        assertThatThrownBy(() -> GUARD.update(pg.dataSource(), 1L, 1, Map.of("fence", 1)))
                .hasMessageContaining("the guard sets it");
    }

    private static String row(long id) throws Exception {
        try (Connection c = pg.connection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT owner, balance, fence FROM account WHERE id = " + id)) {
            rs.next();
            return rs.getString(1) + "/" + rs.getLong(2) + "/" + rs.getLong(3);
        }
    }
}
