package io.redkit.lab.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.LabMain;
import io.redkit.testing.RedisServer;

/** {@code lab clock-jump} end to end: five nodes, two on a moved clock, and the PostgreSQL it starts itself. */
class LabClockJumpIT {

    @Test
    void aClockJumpOnTwoOfFiveNodesMakesTwoRedlockHoldersAndTheFenceRefusesTheStaleWrite() throws Exception {
        // .ci/run installs Debian's faketime; a machine with nothing but a JDK has none.
        assumeTrue(RedisServer.fakeClockAvailable(), "libfaketime is not installed (apt-get install faketime)");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "lab", "clock-jump", "--json");
        assertThat(code).as("exit code; stderr: %s", err).isZero();
        JsonNode json = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        json.at("/timeline").forEach(line -> System.out.println("[figures] LabClockJumpIT " + line.asText()));

        assertThat(json.at("/jump_seconds").asLong()).isEqualTo(30);
        assertThat(json.at("/a_nodes").asInt()).isEqualTo(3);
        assertThat(json.at("/b_nodes").asInt()).isEqualTo(4);
        assertThat(json.at("/two_holders").asBoolean()).isTrue();
        assertThat(json.at("/stale_write_refused").asBoolean()).isTrue();
        assertThat(json.at("/final_value").asText()).isEqualTo("written by B");
    }
}
