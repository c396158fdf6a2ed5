package io.redkit.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.redkit.ReadFrom;

/** Defaults as documented, and every bad value refused at once, named. */
class SessionConfigTest {

    @Test
    void defaultsAreTheDocumentedConstants() {
        SessionConfig c = SessionConfig.defaults();
        assertThat(c.namespace()).isEqualTo("sess");
        assertThat(c.idleTimeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(c.absoluteLifetime()).isEqualTo(Duration.ofHours(12));
        assertThat(c.maxSessionBytes()).isEqualTo(16 * 1024);
        assertThat(c.dataVersion()).isEqualTo(1);
        assertThat(c.timeout()).isNull();
        assertThat(c.toBuilder().build().toString()).isEqualTo(c.toString());
    }

    @Test
    void badValuesAreRefusedNamingTheSetting() {
        SessionConfig.Builder b = SessionConfig.builder();
        assertThatThrownBy(() -> b.namespace("sess:{x}")).hasMessageContaining("namespace");
        assertThatThrownBy(() -> b.idleTimeout(Duration.ofMillis(10))).hasMessageContaining("idleTimeout");
        assertThatThrownBy(() -> b.idleTimeout(null)).hasMessageContaining("idleTimeout");
        assertThatThrownBy(() -> b.absoluteLifetime(Duration.ofDays(91))).hasMessageContaining("absoluteLifetime");
        assertThatThrownBy(() -> b.maxSessionBytes(100)).hasMessageContaining("maxSessionBytes");
        assertThatThrownBy(() -> b.dataVersion(70_000)).hasMessageContaining("dataVersion");
        assertThatThrownBy(() -> b.timeout(Duration.ZERO)).hasMessageContaining("timeout");
        assertThatThrownBy(() -> SessionConfig.builder().idleTimeout(Duration.ofHours(2))
                .absoluteLifetime(Duration.ofHours(1)).build()).hasMessageContaining("absoluteLifetime")
                .hasMessageContaining("idleTimeout");
    }

    @Test
    void sessionsReadTheMasterOnly() {
        assertThat(SessionConfig.builder().readFrom(ReadFrom.MASTER).build()).isNotNull();
        assertThatThrownBy(() -> SessionConfig.builder().readFrom(ReadFrom.REPLICA_PREFERRED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("master only");
        assertThatThrownBy(() -> DenyListConfig.builder().readFrom(ReadFrom.REPLICA_PREFERRED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("master only");
    }

    @Test
    void denyListDefaultsAndLimits() {
        DenyListConfig c = DenyListConfig.defaults();
        assertThat(c.namespace()).isEqualTo("deny");
        assertThat(c.leeway()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.maxTokenLifetime()).isEqualTo(Duration.ofDays(30));
        assertThatThrownBy(() -> DenyListConfig.builder().leeway(Duration.ofSeconds(-1)))
                .hasMessageContaining("leeway");
        assertThatThrownBy(() -> DenyListConfig.builder().maxTokenLifetime(Duration.ofDays(400)))
                .hasMessageContaining("maxTokenLifetime");
    }
}
