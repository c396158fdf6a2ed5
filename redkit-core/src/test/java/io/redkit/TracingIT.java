package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.redkit.testing.RedisServerExtension;

/** Commands are observed through Lettuce's tracing hook, and no value or argument reaches an observation. */
class TracingIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @Test
    void everyCommandIsObservedWithoutItsArguments() {
        List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
        ObservationRegistry registry = ObservationRegistry.create();
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
        String secretValue = "card-4111-1111";
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(redis.server().url()).name("orders")
                .observationRegistry(registry).build())) {
            redkit.commands().setString("trace:key", secretValue, Duration.ofMinutes(1));
            assertThat(redkit.commands().getString("trace:key")).contains(secretValue);
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> tags(stopped).contains("SET") && tags(stopped).contains("GET"));
        assertThat(tags(stopped)).doesNotContain(secretValue);
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
