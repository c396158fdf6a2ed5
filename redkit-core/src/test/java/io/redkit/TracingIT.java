package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.redkit.testing.ObservationLog;
import io.redkit.testing.RedisServerExtension;

/**
 * Operations are observed under the caller's observation with their outcome; commands, when asked, through Lettuce's
 * tracing hook, and no value or argument reaches an observation.
 */
class TracingIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @Test
    void everyCommandIsObservedWithoutItsArguments() {
        ObservationRegistry registry = ObservationRegistry.create();
        ObservationLog log = ObservationLog.of(registry);
        String secretValue = "card-4111-1111";
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.server().url()).name("orders")
                .observationRegistry(registry).traceCommands(true).build())) {
            redkit.commands().setString("trace:key", secretValue, Duration.ofMinutes(1));
            assertThat(redkit.commands().getString("trace:key")).contains(secretValue);
        }

        await().atMost(Duration.ofSeconds(5))
                .until(() -> tags(log.stopped()).contains("SET") && tags(log.stopped()).contains("GET"));
        assertThat(tags(log.stopped())).doesNotContain(secretValue);
    }

    @Test
    void commandsAreNotObservedUnlessAsked() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.server().url())
                .observationRegistry(registry).build())) {
            redkit.commands().setString("trace:quiet", "v", Duration.ofMinutes(1));
        }
        TestObservationRegistryAssert.assertThat(registry).doesNotHaveAnyObservation();
    }

    @Test
    void tracingCommandsWithoutARegistryIsRefused() {
        assertThatThrownBy(() -> RedkitConfig.builder().url(redis.server().url()).traceCommands(true).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("observationRegistry");
    }

    @Test
    void anOperationIsObservedUnderTheCallersObservationWithItsOutcome() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        ObservationLog log = ObservationLog.of(registry);
        Observation request = Observation.start("http.request", registry);
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.server().url()).name("orders")
                .observationRegistry(registry).build())) {
            ObservedOperation op = new ObservedOperation(redkit, "redkit.test.op", "test op",
                    KeyValues.of("feature", "f1"));
            assertThat(op.active()).isTrue();
            try (Observation.Scope ignored = request.openScope()) {
                String found = op.observe(o -> "found", ObservedOperation::outcome);
                assertThat(found).isEqualTo("found");
                assertThatThrownBy(() -> op.observe(o -> {
                    throw new IOException("source down");
                }, v -> ObservedOperation.outcome("unreached"))).isInstanceOf(IOException.class);
            }
        } finally {
            request.stop();
        }
        TestObservationRegistryAssert.assertThat(registry).hasNumberOfObservationsWithNameEqualTo("redkit.test.op", 2)
                .forAllObservationsWithNameEqualTo("redkit.test.op", o -> o
                        .hasContextualNameEqualTo("test op").hasLowCardinalityKeyValue("client", "orders")
                        .hasLowCardinalityKeyValue("feature", "f1").hasParentObservationEqualTo(request));
        assertThat(log.stopped("redkit.test.op"))
                .extracting(c -> ObservationLog.low(c, "outcome"),
                        c -> c.getError() == null ? null : c.getError().getMessage())
                .containsExactly(tuple("found", null), tuple("error", "source down"));
    }

    @Test
    void withoutARegistryNothingIsObserved() {
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.server().url()).build())) {
            assertThat(redkit.observations().isNoop()).isTrue();
            assertThat(new ObservedOperation(redkit, "redkit.test.op", "test op", KeyValues.empty()).active())
                    .isFalse();
        }
    }

    private static String tags(List<Observation.Context> contexts) {
        StringBuilder sb = new StringBuilder();
        for (Observation.Context c : contexts) {
            sb.append(c.getName()).append(' ').append(c.getLowCardinalityKeyValues()).append(' ')
                    .append(c.getHighCardinalityKeyValues()).append('\n');
        }
        return sb.toString();
    }
}
