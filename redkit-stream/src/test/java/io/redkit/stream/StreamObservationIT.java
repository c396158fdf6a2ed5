package io.redkit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.redkit.Redkit;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.ObservationLog;
import io.redkit.testing.RedisServer;

/**
 * Each delivery is one {@code redkit.stream.handle} observation with what became of it; what the handler observes
 * is beneath it (issue 23 point 4).
 */
class StreamObservationIT extends StreamFixture {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StreamObservationIT() {
        super(redis);
    }

    @Test
    void eachDeliveryIsObservedWithWhatBecameOfIt() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        ObservationLog log = ObservationLog.of(registry);
        Redkit redkit = client(b -> b.name("jobs").observationRegistry(registry));
        StreamQueue<Job> queue = queue(redkit, b -> b.maxDeliveries(2));
        String good = queue.publish(new Job(1));
        String poison = queue.publish(new Job(-1));
        queue.start(m -> {
            Observation.createNotStarted("app.work", registry).observe(() -> { });
            if (m.payload().n() < 0) {
                throw new IllegalStateException("poison");
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> log.stopped("redkit.stream.handle").size() == 3);

        assertThat(log.stopped("redkit.stream.handle")).extracting(c -> ObservationLog.high(c, "entry"),
                        c -> ObservationLog.high(c, "delivery"), c -> ObservationLog.low(c, "outcome"))
                .containsExactlyInAnyOrder(tuple(good, "1", "acked"), tuple(poison, "1", "retry"),
                        tuple(poison, "2", "dead_letter"));
        TestObservationRegistryAssert.assertThat(registry)
                .forAllObservationsWithNameEqualTo("redkit.stream.handle", o -> o
                        .hasContextualNameEqualTo("stream handle " + name).hasLowCardinalityKeyValue("client", "jobs")
                        .hasLowCardinalityKeyValue("stream", name).doesNotHaveParentObservation())
                .forAllObservationsWithNameEqualTo("app.work", o -> o.hasParentObservationContextMatching(
                        parent -> ((Observation.ContextView) parent).getName().equals("redkit.stream.handle")));
    }
}
