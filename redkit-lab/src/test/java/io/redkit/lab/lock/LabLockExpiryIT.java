package io.redkit.lab.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.LabMain;

/** {@code lab lock-expiry} end to end against its own redis-server and the machine's PostgreSQL. */
class LabLockExpiryIT {

    @Test
    void naiveReleaseIsBrokenOwnerCheckedReportsLostAndTheFenceRefusesTheStaleWrite() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "lab", "lock-expiry", "--json");
        assertThat(code).as("exit code; stderr: %s", err).isZero();
        JsonNode json = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));

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
}
