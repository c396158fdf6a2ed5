package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.redkit.testing.internal.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;

/** A schema per test class in a real PostgreSQL: unqualified SQL lands in it, and it is gone after the class. */
class PostgresExtensionIT {

    @RegisterExtension
    static final PostgresExtension pg = PostgresExtension.create();

    @Test
    void unqualifiedTablesLandInTheClassesOwnSchema() throws Exception {
        pg.execute("CREATE TABLE account (id int PRIMARY KEY, balance bigint)");
        pg.execute("INSERT INTO account VALUES (1, 100), (2, 50)");

        assertThat(pg.schema()).startsWith("t_postgresextensionit_");
        assertThat(pg.queryLong("SELECT sum(balance) FROM account")).isEqualTo(150);
        assertThat(pg.queryLong("SELECT count(*) FROM information_schema.tables WHERE table_name = 'account'"
                + " AND table_schema = '" + pg.schema() + "'")).isEqualTo(1);
        try (Connection c = pg.connection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW search_path")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo(pg.schema());
        }
    }

    @Test
    void jdbcUrlNamesTheSchema() throws Exception {
        System.out.println("[figures] PostgresExtensionIT schema URL " + Jdbc.masked(pg.jdbcUrl()));
        assertThat(pg.jdbcUrl()).startsWith("jdbc:postgresql://").endsWith("currentSchema=" + pg.schema());
        assertThat(Jdbc.queryLong(Jdbc.dataSource(pg.jdbcUrl()), "SELECT count(*) FROM information_schema.schemata"
                + " WHERE schema_name = current_schema() AND schema_name = '" + pg.schema() + "'")).isEqualTo(1);
    }

    @Test
    void schemaIsDroppedWithItsTablesAfterTheClass() throws Exception {
        Run.schema.set(null);

        EngineTestKit.engine("junit-jupiter").selectors(selectClass(Run.class)).execute()
                .testEvents().assertStatistics(stats -> stats.succeeded(1).failed(0));

        assertThat(Run.schema.get()).isNotNull();
        assertThat(pg.queryLong("SELECT count(*) FROM pg_namespace WHERE nspname = '" + Run.schema.get() + "'")).isZero();
    }

    @Test
    void externalServerFromTheSystemPropertyIsUsedInsteadOfTheSharedOne() throws Exception {
        try (PostgresServer external = PostgresServer.start()) {
            // Trust authentication ignores the password; it is here to be kept out of logs.
            System.setProperty(PostgresExtension.JDBC_URL_PROPERTY, external.jdbcUrl() + "&password=not-for-logs");
            Run.url.set(null);
            try {
                EngineTestKit.engine("junit-jupiter").selectors(selectClass(Run.class)).execute()
                        .testEvents().assertStatistics(stats -> stats.succeeded(1));
            } finally {
                System.clearProperty(PostgresExtension.JDBC_URL_PROPERTY);
            }
            assertThat(Run.url.get()).startsWith("jdbc:postgresql://127.0.0.1:" + external.port() + "/")
                    .contains("password=not-for-logs");
        }
    }

    /** Run by the tests above through the test kit, not by the build (the build runs only *IT and *Test classes). */
    static class Run {

        static final AtomicReference<String> schema = new AtomicReference<>();
        static final AtomicReference<String> url = new AtomicReference<>();

        @RegisterExtension
        static final PostgresExtension classSchema = PostgresExtension.create();

        @Test
        void fillsItsSchema() throws Exception {
            classSchema.execute("CREATE TABLE leftover (id int)");
            classSchema.execute("INSERT INTO leftover VALUES (1)");
            schema.set(classSchema.schema());
            url.set(classSchema.jdbcUrl());
        }
    }
}
