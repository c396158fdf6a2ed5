package io.redkit.session;

import static org.assertj.core.api.Assertions.assertThat;

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
 * A load is one {@code redkit.session.load} observation under the caller's, with its result as outcome; the
 * session id, a bearer secret, and the user never become key values (issue 23 point 4).
 */
class SessionObservationIT {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    @Test
    void loadsAreObservedUnderTheRequestWithTheirResultAndNoSecret() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        Observation request = Observation.start("http.request", registry);
        String[] secrets = new String[2];
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.url()).name("web")
                        .observationRegistry(registry).build());
                Observation.Scope ignored = request.openScope()) {
            SessionStore<String> store = SessionStore.builder(redkit, String.class).build();
            Session<String> session = store.create("user-7", "cart");
            secrets[0] = session.id().value();
            secrets[1] = session.id().digest();
            assertThat(store.load(session.id())).isPresent();
            assertThat(store.load(SessionId.generate())).isEmpty();
        } finally {
            request.stop();
        }
        TestObservationRegistryAssert.assertThat(registry)
                .hasNumberOfObservationsWithNameEqualTo("redkit.session.load", 2)
                .forAllObservationsWithNameEqualTo("redkit.session.load", o -> o.hasParentObservationEqualTo(request)
                        .hasContextualNameEqualTo("session load sess").hasLowCardinalityKeyValue("client", "web")
                        .hasLowCardinalityKeyValue("store", "sess").satisfies(c -> assertThat(((Observation.ContextView) c).getAllKeyValues())
                                .noneMatch(kv -> kv.getValue().contains("user-7")
                                        || kv.getValue().contains(secrets[0]) || kv.getValue().contains(secrets[1]))))
                .hasAnObservation(o -> o.hasNameEqualTo("redkit.session.load")
                        .hasLowCardinalityKeyValue("outcome", "hit"))
                .hasAnObservation(o -> o.hasNameEqualTo("redkit.session.load")
                        .hasLowCardinalityKeyValue("outcome", "miss"));
    }
}
