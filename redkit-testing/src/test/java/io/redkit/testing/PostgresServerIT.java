package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.redkit.testing.internal.Jdbc;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A PostgreSQL of its own, without JUnit: started from Maven's binaries on a free loopback port, gone after close. */
class PostgresServerIT {

    @Test
    void startsOnAFreeLoopbackPortAndAcceptsTrustedConnections() throws Exception {
        long started = System.nanoTime();
        try (PostgresServer server = PostgresServer.start()) {
            long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
            System.out.printf("[figures] PostgresServer started in %d ms on %s%n", millis, server.jdbcUrl());

            assertThat(server.host()).isEqualTo("127.0.0.1");
            assertThat(server.port()).as("a port from redkit-testing's range").isBetween(10000, 21999);
            assertThat(server.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:" + server.port() + "/postgres?user=postgres");
            assertThat(server.user()).isEqualTo("postgres");
            assertThat(Jdbc.queryLong(Jdbc.dataSource(server.jdbcUrl()), "SELECT current_setting('server_version_num')::int"))
                    .isGreaterThanOrEqualTo(170000);
        }
    }

    @Test
    void sharedServerIsOnePerJvmAndMakesDatabases() throws Exception {
        PostgresServer shared = PostgresServer.shared();
        String name = "orders_" + System.nanoTime();

        String url = shared.createDatabase(name);

        assertThat(PostgresServer.shared()).isSameAs(shared);
        assertThat(url).isEqualTo(shared.jdbcUrl(name)).endsWith("/" + name + "?user=postgres");
        assertThat(Jdbc.queryLong(Jdbc.dataSource(url), "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).isZero();
    }

    @Test
    void closeStopsTheServerAndDeletesItsDirectory() {
        PostgresServer server = PostgresServer.start();
        Path dir = server.directory();
        long postmaster = server.pid();

        server.close();

        assertThat(ProcessHandle.of(postmaster)).isEmpty();
        assertThat(dir).doesNotExist();
    }
}
