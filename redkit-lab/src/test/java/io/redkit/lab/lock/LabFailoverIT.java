package io.redkit.lab.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.LabMain;

/** {@code lab failover} end to end, on the Sentinel groups and the PostgreSQL it starts itself. */
class LabFailoverIT {

    @Test
    void aFailoverMakesTwoHoldersUnlessReplicasConfirmAndDatabaseTokensRefuseTheStaleWrite() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "lab", "failover", "--json");
        assertThat(code).as("exit code; stderr: %s", err).isZero();
        JsonNode json = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        json.at("/timeline").forEach(line -> System.out.println("[figures] LabFailoverIT " + line.asText()));

        assertThat(json.at("/plain/two_holders").asBoolean()).as("no acks: A and B both hold it").isTrue();
        assertThat(json.at("/plain/token_repeated").asBoolean()).as("the Redis counter rolled back").isTrue();
        assertThat(json.at("/confirmed/acquire_refused").asBoolean()).isTrue();
        assertThat(json.at("/confirmed/two_holders").asBoolean()).isFalse();
        assertThat(json.at("/db_tokens/two_holders").asBoolean()).isTrue();
        assertThat(json.at("/db_tokens/token_repeated").asBoolean()).isFalse();
        assertThat(json.at("/db_tokens/stale_write_refused").asBoolean()).isTrue();
        assertThat(json.at("/db_tokens/final_value").asText()).isEqualTo("written by B");
    }
}
