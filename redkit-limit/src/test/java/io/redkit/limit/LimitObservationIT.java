package io.redkit.limit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.RedisServer;

/**
 * A decision, sync or async, is one {@code redkit.limit.decision} observation under the caller's, whose outcome
 * says who decided what (issue 23 point 4); the subject (a user, an address) never becomes a key value.
 */
class LimitObservationIT {

    @Test
    void decisionsAreObservedUnderTheRequestWithWhoDecidedWhat() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        Observation request = Observation.start("http.request", registry);
        try (RedisServer server = RedisServer.start();
                Redkit redkit = Redkit.create(RedkitConfig.builder().url(server.url()).name("api")
                        .observationRegistry(registry).build());
                Observation.Scope ignored = request.openScope()) {
            RateLimiter limiter = Limits.create(redkit, LimitsConfig.defaults()).limiter(LimiterConfig.of("login",
                    UnavailablePolicy.FAIL_OPEN, Limit.gcra(1, Duration.ofMinutes(1))));
            assertThat(limiter.tryAcquire("user-secret-42", 1).allowed()).isTrue();
            assertThat(limiter.tryAcquire("user-secret-42", 1).allowed()).isFalse();
            assertThat(limiter.tryAcquireAsync("user-secret-42", 1).get(5, TimeUnit.SECONDS).allowed()).isFalse();
            server.kill();
            assertThat(limiter.tryAcquire("user-secret-42", 1).basis()).isEqualTo(Decision.Basis.FAIL_OPEN);
        } finally {
            request.stop();
        }
        TestObservationRegistryAssert.assertThat(registry)
                .hasNumberOfObservationsWithNameEqualTo("redkit.limit.decision", 4)
                .forAllObservationsWithNameEqualTo("redkit.limit.decision", o -> o.hasParentObservationEqualTo(request)
                        .hasContextualNameEqualTo("limit decision login").hasLowCardinalityKeyValue("client", "api")
                        .hasLowCardinalityKeyValue("limiter", "login")
                        .doesNotHaveHighCardinalityKeyValueWithKey("subject"))
                .hasAnObservation(o -> o.hasNameEqualTo("redkit.limit.decision")
                        .hasLowCardinalityKeyValue("outcome", "allowed"))
                .hasAnObservation(o -> o.hasNameEqualTo("redkit.limit.decision")
                        .hasLowCardinalityKeyValue("outcome", "denied"))
                .hasAnObservation(o -> o.hasNameEqualTo("redkit.limit.decision")
                        .hasLowCardinalityKeyValue("outcome", "fail_open"));
    }
}
