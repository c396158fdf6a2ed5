package io.redkit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

class BackendsTest {

    @Test
    void aPostgresUrlBecomesAJdbcUrlWithItsCredentials() {
        Backends.Database db = Backends.database("postgres://shop:p%40ss%3Aword@db.internal:6432/orders?sslmode=require",
                Map.of());

        assertThat(db.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:6432/orders?sslmode=require");
        assertThat(db.user()).isEqualTo("shop");
        assertThat(db.password()).isEqualTo("p@ss:word");
        assertThat(db.toString()).doesNotContain("p@ss").contains("shop", "****");
    }

    @Test
    void aJdbcUrlIsTakenAsItIsWithTheCredentialsOfTheEnvironment() {
        Backends.Database db = Backends.database("jdbc:postgresql://127.0.0.1:5433/app", Map.of("DATABASE_USER",
                "app", "DATABASE_PASSWORD", "hidden"));

        assertThat(db.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5433/app");
        assertThat(db.user()).isEqualTo("app");
        assertThat(db.toString()).doesNotContain("hidden");
    }

    @Test
    void anotherSchemeIsRefusedWithoutShowingThePassword() {
        assertThatThrownBy(() -> Backends.database("mysql://root:hunter2@127.0.0.1/db", Map.of()))
                .isInstanceOf(Backends.StartupException.class)
                .hasMessageContaining("DATABASE_URL must be postgres://")
                .hasMessageContaining("mysql://root:****@127.0.0.1/db")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void maskingHidesOnlyThePassword() {
        assertThat(Backends.masked("postgres://u:secret@h:1/d")).isEqualTo("postgres://u:****@h:1/d");
        assertThat(Backends.masked("postgres://h:1/d")).isEqualTo("postgres://h:1/d");
    }
}
