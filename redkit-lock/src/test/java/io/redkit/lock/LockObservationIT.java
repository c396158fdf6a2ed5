package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/**
 * An acquisition is one {@code redkit.lock.acquire} observation under the caller's, whose duration is the wait and
 * whose outcome says whether the lock was had (issue 23 point 4).
 */
class LockObservationIT {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    @Test
    void acquisitionsAreObservedUnderTheRequestWithTheirOutcome() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        Observation request = Observation.start("http.request", registry);
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.url()).name("shop")
                        .observationRegistry(registry).build());
                Locks locks = Locks.create(redkit, LockConfig.builder().namespace("orders-lock").build());
                Observation.Scope ignored = request.openScope()) {
            Lock lock = locks.lock("order:1");
            Optional<Lease> held = lock.tryAcquire();
            assertThat(held).isPresent();
            assertThat(lock.tryAcquire(Duration.ofMillis(30))).isEmpty();
            held.get().release();
            String done = lock.runLocked(Duration.ofSeconds(1), lease -> "done");
            assertThat(done).isEqualTo("done");
        } finally {
            request.stop();
        }
        TestObservationRegistryAssert.assertThat(registry)
                .hasNumberOfObservationsWithNameEqualTo("redkit.lock.acquire", 3)
                .forAllObservationsWithNameEqualTo("redkit.lock.acquire", o -> o
                        .hasContextualNameEqualTo("lock acquire orders-lock")
                        .hasLowCardinalityKeyValue("client", "shop")
                        .hasLowCardinalityKeyValue("namespace", "orders-lock")
                        .hasHighCardinalityKeyValue("lock", "order:1")
                        .hasParentObservationEqualTo(request))
                .hasAnObservation(o -> o.hasNameEqualTo("redkit.lock.acquire")
                        .hasLowCardinalityKeyValue("outcome", "busy").hasHighCardinalityKeyValue("wait", "PT0.03S"))
                .hasAnObservation(o -> o.hasNameEqualTo("redkit.lock.acquire")
                        .hasLowCardinalityKeyValue("outcome", "acquired").hasHighCardinalityKeyValue("wait", "PT1S"));
    }
}
