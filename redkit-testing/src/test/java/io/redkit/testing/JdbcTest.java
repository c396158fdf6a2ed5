package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redkit.testing.internal.Jdbc;
import org.junit.jupiter.api.Test;

/** The JDBC helpers never let a password out, and refuse names that would need quoting. */
class JdbcTest {

    @Test
    void maskedUrlHidesThePasswordWhereverItStands() {
        assertThat(Jdbc.masked("jdbc:postgresql://db:6000/test?user=ci&password=s3cret")).isEqualTo("jdbc:postgresql://db:6000/test?user=ci&password=***");
        assertThat(Jdbc.masked("jdbc:postgresql://db/test?password=s3cret&user=ci")).isEqualTo("jdbc:postgresql://db/test?password=***&user=ci");
        assertThat(Jdbc.masked("jdbc:postgresql://db/test?user=ci")).isEqualTo("jdbc:postgresql://db/test?user=ci");
    }

    @Test
    void badUrlIsRefusedWithoutItsPassword() {
        assertThatThrownBy(() -> Jdbc.dataSource("jdbc:mysql://db/test?password=s3cret"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("password=***").hasMessageNotContaining("s3cret");
    }

    @Test
    void parameterIsAppendedToTheQueryString() {
        assertThat(Jdbc.withParameter("jdbc:postgresql://db/test", "currentSchema", "s")).isEqualTo("jdbc:postgresql://db/test?currentSchema=s");
        assertThat(Jdbc.withParameter("jdbc:postgresql://db/test?user=ci", "currentSchema", "s")).endsWith("?user=ci&currentSchema=s");
    }

    @Test
    void identifierThatNeedsQuotingIsRefusedNamingIt() {
        assertThat(Jdbc.identifier("schema", "t_lock_1")).isEqualTo("t_lock_1");
        assertThatThrownBy(() -> Jdbc.identifier("schema", "Robert'); DROP")).hasMessageContaining("schema name").hasMessageContaining("Robert");
        assertThatThrownBy(() -> Jdbc.identifier("database", "1abc")).hasMessageContaining("1abc");
    }
}
