package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.redkit.spring.Products.Catalog;
import io.redkit.spring.health.HealthStatusOrder;
import io.redkit.spring.health.RedkitCacheHealthIndicator;
import io.redkit.stream.StreamQueue;
import io.redkit.stream.Workers;
import io.redkit.testing.RedisServerExtension;

/**
 * The Boot 4 starter's HealthEndpointIT on Boot 3.5's actuator (its health types are in
 * {@code org.springframework.boot.actuate.health}, so that test cannot run here): the starter's contributors and
 * status order in the health endpoint, against a real redis-server.
 */
class Boot3HealthEndpointIT {

    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.standalone();

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withInitializer(context -> new HealthStatusOrder().postProcessEnvironment(context.getEnvironment(),
                        new SpringApplication()))
                .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class,
                        HealthContributorAutoConfiguration.class, HealthEndpointAutoConfiguration.class))
                .withUserConfiguration(Products.App.class)
                .withPropertyValues("redkit.url=" + redis.url(),
                        "redkit.cache.caches.products.value-type=" + Products.Product.class.getName(),
                        "redkit.cache.caches.products.breaker-window=2",
                        "spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=health");
    }

    @Test
    void aDegradedCacheMakesTheServiceDegradedAndItsRecoveryUp() {
        runner().run(context -> {
            HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
            assertThat(endpoint.health().getStatus()).isEqualTo(Status.UP);
            redis.pause();
            Catalog catalog = context.getBean(Catalog.class);
            for (long id = 1; id < 5; id++) {
                catalog.find(id);
            }
            assertThat(endpoint.healthForPath("redkitCache").getStatus())
                    .isEqualTo(RedkitCacheHealthIndicator.DEGRADED);
            assertThat(endpoint.health().getStatus()).isEqualTo(RedkitCacheHealthIndicator.DEGRADED);
            redis.resume();
            await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.health().getStatus().equals(Status.UP));
        });
    }

    @Test
    void sessionsOutOfServiceOutrankADegradedCache() {
        runner().run(context -> {
            HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
            assertThat(endpoint.healthForPath("redkitSessions").getStatus()).isEqualTo(Status.UNKNOWN);
            context.getBean(RedkitSessions.class).store(FeatureBeansIT.Account.class);
            redis.kill();
            Catalog catalog = context.getBean(Catalog.class);
            for (long id = 1; id < 5; id++) {
                catalog.find(id);
            }
            assertThat(endpoint.healthForPath("redkitCache").getStatus())
                    .isEqualTo(RedkitCacheHealthIndicator.DEGRADED);
            assertThat(endpoint.healthForPath("redkitSessions").getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
            assertThat(endpoint.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        });
    }

    @Test
    void aQueueWhoseWorkersAreAllDownIsDownWithItsCountsAndUpOnceStopped() {
        runner().run(context -> {
            HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
            StreamQueue<FeatureBeansIT.Account> orders = context.getBean(RedkitQueues.class)
                    .queue("orders", FeatureBeansIT.Account.class);
            assertThat(endpoint.healthForPath("redkitQueues").getStatus()).isEqualTo(Status.UP);
            orders.publish(new FeatureBeansIT.Account("a"));
            // The message kills the worker; it restarts after a wait and dies again on the same message.
            Workers workers = orders.start(m -> {
                throw new OutOfMemoryError("simulated");
            });

            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> endpoint.healthForPath("redkitQueues").getStatus().equals(Status.DOWN));
            assertThat(endpoint.health().getStatus()).isEqualTo(Status.DOWN);
            assertThat(((Health) endpoint.healthForPath("redkitQueues")).getDetails()).containsEntry("orders",
                    Map.of("workers", 1, "running", 0, "persistence", "NO_AOF"));
            workers.close();
            assertThat(endpoint.healthForPath("redkitQueues").getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void eachContributorIsOffWithItsProperty() {
        runner().withPropertyValues("management.health.redkit-cache.enabled=false",
                "management.health.redkit-sessions.enabled=false", "management.health.redkit-queues.enabled=false")
                .run(context -> assertThat(context.getBean(HealthEndpoint.class).health().getStatus())
                        .isEqualTo(Status.UP).satisfies(s -> assertThat(context)
                                .doesNotHaveBean("redkitCacheHealthIndicator")
                                .doesNotHaveBean("redkitSessionsHealthIndicator")
                                .doesNotHaveBean("redkitQueuesHealthIndicator")));
    }
}
