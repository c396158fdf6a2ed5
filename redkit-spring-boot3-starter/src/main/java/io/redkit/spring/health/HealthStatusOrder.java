package io.redkit.spring.health;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;

import io.redkit.spring.internal.HealthReport;

/**
 * Gives {@code management.endpoint.health.status.order} a default that knows {@link
 * RedkitCacheHealthIndicator#DEGRADED}: DOWN, OUT_OF_SERVICE, DEGRADED, UP, UNKNOWN. Spring Boot's aggregator
 * ignores a status missing from the order, so without this a degraded cache would not show in the overall status.
 * The default sits last among the property sources: an order the application sets wins (and should then list
 * DEGRADED itself).
 */
public final class HealthStatusOrder implements EnvironmentPostProcessor {

    /** The property Spring Boot's health endpoint reads its order from. */
    public static final String PROPERTY = HealthReport.STATUS_ORDER_PROPERTY;
    /** The order the starter sets when the application sets none. */
    public static final String ORDER = HealthReport.STATUS_ORDER;

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        HealthReport.defaultStatusOrder(environment);
    }
}
