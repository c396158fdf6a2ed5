package io.redkit.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** {@code lab client} end to end: its own redis-server, every scenario, the JSON contract of DESIGN §11. */
class LabClientIT {

    @Test
    void labClientJsonCarriesTheContractFields() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "lab", "client", "--json");
        String stdout = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code; stderr: %s", err).isZero();

        JsonNode json = new ObjectMapper().readTree(stdout);
        assertThat(json.at("/miss/result").asText()).isEqualTo("empty");
        assertThat(json.at("/timeout/configured_ms").asLong()).isEqualTo(300);
        assertThat(json.at("/timeout/observed_ms").asLong()).isBetween(290L, 999L);
        assertThat(json.at("/timeout/outcome").asText()).isEqualTo("unknown");
        assertThat(json.at("/disconnected/observed_ms").asLong()).isLessThan(100);
        assertThat(json.at("/pool/size").asInt()).isEqualTo(4);
        assertThat(json.at("/pool/wait_ms").asLong()).isEqualTo(200);
        assertThat(json.at("/pool/observed_ms").asLong()).isBetween(195L, 800L);
        assertThat(json.at("/pool/error").asText()).isEqualTo("PoolExhaustedException");
        assertThat(json.at("/noscript/recovered").asBoolean()).isTrue();
        assertThat(json.at("/first_connect/error").isNull()).as(json.at("/first_connect").toString()).isTrue();
        assertThat(json.at("/first_connect/jvm_to_first_reply_ms").asLong()).isPositive();
        assertThat(json.at("/first_connect/connect_classes").asLong()).isPositive();
        assertThat(json.at("/first_connect/target_ms").asLong()).isEqualTo(500);
        assertThat(json.at("/retry/incr_value_after_timeout").asLong())
                .isEqualTo(json.at("/retry/incr_expected").asLong()).isEqualTo(1);
    }

    @Test
    void labClientTableIsReadable() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(out, true, StandardCharsets.UTF_8), System.err, "lab", "client");
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("scenario", "timeout", "PoolExhaustedException",
                "RedisTimeoutException, outcome unknown");
    }
}
