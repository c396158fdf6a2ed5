package io.redkit.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code lab cold-cache} end to end, with short phases at a low rate: the redkit-demo jar (which the reactor builds
 * before this module) on the lab's own redis-server and PostgreSQL, Redis killed and restarted under the reads.
 */
class ColdCacheLabIT {

    /** Failsafe runs in this module's directory. */
    private static final Path DEMO_JAR = Path.of("..", "redkit-demo", "target", "redkit-demo.jar");
    private static final int RATE = 100;
    private static final String[] PHASES = {"warm", "settle", "before", "during", "recovery", "after"};

    @Test
    void theDatabaseTakesEveryReadWhileRedisIsDeadAndNoReadFails() throws Exception {
        assertThat(Files.isRegularFile(DEMO_JAR))
                .as("no redkit-demo jar at %s: build it first (./mvnw -B -q -DskipTests package at the repository"
                        + " root; the reactor builds redkit-demo before redkit-lab)",
                        DEMO_JAR.toAbsolutePath().normalize())
                .isTrue();

        JsonNode json = LabRun.json("lab", "cold-cache", "--json", "--jar", DEMO_JAR.toString(), "--rate", "" + RATE,
                "--working-set", "200", "--settle-s", "1", "--before-s", "2", "--during-s", "2", "--after-s", "2");
        System.out.println("[figures] ColdCacheLabIT db_qps before/during/after: " + json.at("/before/db_qps") + " / "
                + json.at("/during/db_qps") + " / " + json.at("/after/db_qps") + ", breaker open after "
                + json.at("/breaker_open_after_ms") + " ms, closed " + json.at("/breaker_closed_after_restart_ms")
                + " ms after the restart");

        for (String phase : PHASES) {
            for (String field : new String[] {"db_qps", "p50_ms", "p99_ms"}) {
                assertThat(json.at("/" + phase + "/" + field).isNumber()).as(phase + "." + field).isTrue();
            }
            // Product reads never fail because of Redis: the cache falls back to PostgreSQL.
            assertThat(json.at("/" + phase + "/requests").asLong()).as(phase + ".requests").isPositive();
            assertThat(json.at("/" + phase + "/non_200").asLong()).as(phase + ".non_200; " + json.at("/" + phase))
                    .isZero();
            assertThat(json.at("/" + phase + "/errors").asLong()).as(phase + ".errors; " + json.at("/" + phase))
                    .isZero();
        }

        // The warm cache kept the reads off the database; with Redis dead every read is a query.
        double before = json.at("/before/db_qps").asDouble();
        double during = json.at("/during/db_qps").asDouble();
        assertThat(during).isGreaterThan(Math.max(10 * before, RATE / 4.0));

        assertThat(json.at("/breaker_open_after_ms").isIntegralNumber()).as("breaker_open_after_ms").isTrue();
        assertThat(json.at("/breaker_open_after_ms").asLong()).isPositive();
        assertThat(json.at("/breaker_closed_after_restart_ms").isIntegralNumber())
                .as("breaker_closed_after_restart_ms").isTrue();
        assertThat(json.at("/timeline").findValuesAsText("breaker")).contains("CLOSED", "OPEN");
        assertThat(json.at("/settings/rate").asInt()).isEqualTo(RATE);
    }
}
