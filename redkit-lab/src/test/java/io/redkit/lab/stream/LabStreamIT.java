package io.redkit.lab.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.redkit.lab.LabMain;

/** {@code lab pubsub-vs-streams} end to end, with the JSON fields of DESIGN §11. */
class LabStreamIT {

    @Test
    void aReceiverAwayForASecondLosesThatSecondOfPubSubAndNoneOfTheStream() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "lab", "pubsub-vs-streams", "--json",
                "--messages", "300", "--rate", "100", "--offline-ms", "1000");
        assertThat(code).as("exit code; stderr: %s", err).isZero();

        JsonNode json = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        System.out.printf("[figures] LabStreamIT 300 events at 100/s, receiver away 1000 ms: pub/sub received %d,"
                + " stream received %d%n", json.at("/pubsub/received").asInt(), json.at("/streams/received").asInt());
        assertThat(json.at("/published").asInt()).isEqualTo(300);
        assertThat(json.at("/offline_ms").asLong()).isEqualTo(1000);
        assertThat(json.at("/streams/received").asInt()).isEqualTo(300);
        assertThat(json.at("/streams/lost").asInt()).isZero();
        // About a second of events at 100/s; a loaded machine publishes a little slower, never faster.
        assertThat(json.at("/pubsub/lost").asInt()).isBetween(50, 110);
        assertThat(json.at("/pubsub/received").asInt()).isEqualTo(300 - json.at("/pubsub/lost").asInt());
        assertThat(json.at("/timeline")).isNotEmpty();
    }
}
