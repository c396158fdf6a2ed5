package io.redkit.spring.health;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Gives {@code management.endpoint.health.status.order} a default that knows {@link
 * RedkitCacheHealthIndicator#DEGRADED}: DOWN, OUT_OF_SERVICE, DEGRADED, UP, UNKNOWN. Spring Boot's aggregator
 * ignores a status missing from the order, so without this a degraded cache would not show in the overall status.
 * The default sits last among the property sources: an order the application sets wins (and should then list
 * DEGRADED itself).
 */
public final class HealthStatusOrder implements EnvironmentPostProcessor {

    /** The property Spring Boot's health endpoint reads its order from. */
    public static final String PROPERTY = "management.endpoint.health.status.order";
    /** The order the starter sets when the application sets none. */
    public static final String ORDER = "DOWN,OUT_OF_SERVICE,DEGRADED,UP,UNKNOWN";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.containsProperty(PROPERTY)) {
            environment.getPropertySources().addLast(new MapPropertySource("redkitHealthStatusOrder",
                    Map.of(PROPERTY, ORDER)));
        }
    }
}
