package io.redkit.lab.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.LabMain;
import io.redkit.testing.PostgresServer;

/** {@code lab lock-expiry} end to end against the redis-server and the PostgreSQL it starts itself. */
class LabLockExpiryIT {

    @Test
    void naiveReleaseIsBrokenOwnerCheckedReportsLostAndTheFenceRefusesTheStaleWrite() throws Exception {
        JsonNode json = new ObjectMapper().readTree(run("lab", "lock-expiry", "--json"));
        System.out.println("[figures] LabLockExpiryIT database: " + json.at("/database").asText());

        // Its own server, on a port from redkit-testing's range, not a PostgreSQL the machine happens to run.
        assertThat(json.at("/database").asText()).matches("PostgreSQL started by the lab on 127\\.0\\.0\\.1:(1\\d|2[01])\\d{3}");

        assertThat(json.at("/naive/violated").asBoolean()).isTrue();
        assertThat(json.at("/owner_checked/foreign_release_refused").asBoolean()).isTrue();
        assertThat(json.at("/owner_checked/release_result").asText()).isEqualTo("LOST");
        assertThat(json.at("/owner_checked/c_refused_beside_b").asBoolean()).isTrue();
        assertThat(json.at("/fenced/token_b").asLong()).isGreaterThan(json.at("/fenced/token_a").asLong());
        assertThat(json.at("/fenced/stale_writes_accepted").asInt()).isZero();
        assertThat(json.at("/fenced/stale_writes_refused").asInt()).isEqualTo(1);
        assertThat(json.at("/fenced/unguarded_stale_writes_accepted").asInt()).isEqualTo(1);
        assertThat(json.at("/fenced/final_value").asText()).isEqualTo("written by B");
        assertThat(json.at("/timeline").size()).isGreaterThan(10);
    }

    @Test
    void givenJdbcUrlIsUsedAndItsPasswordNeverPrinted() throws Exception {
        try (PostgresServer external = PostgresServer.start()) {
            // Trust authentication ignores the password; it is here to be kept out of the output.
            String output = run("lab", "lock-expiry", "--json", "--jdbc", external.jdbcUrl() + "&password=never-printed");
            JsonNode json = new ObjectMapper().readTree(output);

            assertThat(json.at("/database").asText()).isEqualTo("external PostgreSQL at 127.0.0.1:" + external.port() + "/postgres");
            assertThat(json.at("/fenced/stale_writes_refused").asInt()).isEqualTo(1);
            assertThat(output).doesNotContain("never-printed");
        }
    }

    /** Runs the CLI and returns its stdout; fails, showing stderr, unless it exits 0 without the test password on stderr. */
    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        assertThat(code).as("exit code; stderr: %s", err).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("never-printed");
        return out.toString(StandardCharsets.UTF_8);
    }
}
