package io.redkit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.redkit.Redkit;
import io.redkit.testing.DeploymentExtension;
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
        List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }
        });
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
        await().atMost(Duration.ofSeconds(20)).until(() -> stopped.stream()
                .filter(c -> c.getName().equals("redkit.stream.handle")).count() == 3);

        assertThat(stopped).filteredOn(c -> c.getName().equals("redkit.stream.handle"))
                .extracting(c -> highValue(c, "entry"), c -> highValue(c, "delivery"), c -> value(c, "outcome"))
                .containsExactlyInAnyOrder(tuple(good, "1", "acked"), tuple(poison, "1", "retry"),
                        tuple(poison, "2", "dead_letter"));
        TestObservationRegistryAssert.assertThat(registry)
                .forAllObservationsWithNameEqualTo("redkit.stream.handle", o -> o
                        .hasContextualNameEqualTo("stream handle " + name).hasLowCardinalityKeyValue("client", "jobs")
                        .hasLowCardinalityKeyValue("stream", name).doesNotHaveParentObservation())
                .forAllObservationsWithNameEqualTo("app.work", o -> o.hasParentObservationContextMatching(
                        parent -> ((Observation.ContextView) parent).getName().equals("redkit.stream.handle")));
    }

    private static String value(Observation.Context context, String key) {
        KeyValue value = context.getLowCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }

    private static String highValue(Observation.Context context, String key) {
        KeyValue value = context.getHighCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }
}
