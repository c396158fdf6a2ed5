package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.redkit.spring.Products.Catalog;
import io.redkit.spring.health.HealthStatusOrder;
import io.redkit.spring.health.RedkitCacheHealthIndicator;
import io.redkit.testing.RedisServerExtension;

/** The actuator's health endpoint with the starter's contributors and status order, against a real redis-server. */
class HealthEndpointIT {

    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.standalone();

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withInitializer(context -> new HealthStatusOrder().postProcessEnvironment(context.getEnvironment(),
                        new SpringApplication()))
                .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class,
                        HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
                        HealthEndpointAutoConfiguration.class))
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
            HealthDescriptor health = endpoint.healthForPath("redkitCache");
            assertThat(health.getStatus()).isEqualTo(RedkitCacheHealthIndicator.DEGRADED);
            assertThat(endpoint.health().getStatus()).isEqualTo(RedkitCacheHealthIndicator.DEGRADED);
            redis.resume();
            await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.health().getStatus().equals(Status.UP));
        });
    }

    @Test
    void sessionsOutOfServiceOutrankADegradedCache() {
        runner().run(context -> {
            HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
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
            io.redkit.stream.StreamQueue<FeatureBeansIT.Account> orders = context.getBean(RedkitQueues.class)
                    .queue("orders", FeatureBeansIT.Account.class);
            assertThat(endpoint.healthForPath("redkitQueues").getStatus()).isEqualTo(Status.UP);
            for (int i = 0; i < 10; i++) {
                orders.publish(new FeatureBeansIT.Account("a" + i));
            }
            // Each message kills the worker; deaths in a row wait 100, 200, 400 ms… before the restart.
            io.redkit.stream.Workers workers = orders.start(m -> {
                throw new OutOfMemoryError("simulated");
            });

            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> endpoint.healthForPath("redkitQueues").getStatus().equals(Status.DOWN));
            assertThat(endpoint.health().getStatus()).isEqualTo(Status.DOWN);
            assertThat(orders.workerCount()).isEqualTo(new io.redkit.stream.StreamQueue.WorkerCount(1, 0));
            workers.close();
            assertThat(endpoint.healthForPath("redkitQueues").getStatus()).isEqualTo(Status.UP);
            assertThat(orders.workerCount()).isEqualTo(new io.redkit.stream.StreamQueue.WorkerCount(0, 0));
        });
    }

    @Test
    void aQueueWithAWorkerRestartingIsDegradedWithItsCountsAndItsPersistence() {
        runner().withPropertyValues("redkit.queue.queues.orders.workers=2").run(context -> {
            HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
            io.redkit.stream.StreamQueue<FeatureBeansIT.Account> orders = context.getBean(RedkitQueues.class)
                    .queue("orders", FeatureBeansIT.Account.class);
            orders.publish(new FeatureBeansIT.Account("poison"));
            // The poison message kills the worker that takes it; the other goes on while it waits to restart.
            io.redkit.stream.Workers workers = orders.start(m -> {
                if (m.payload().name().equals("poison")) {
                    throw new OutOfMemoryError("simulated");
                }
            });
            try {
                // One snapshot of the whole endpoint: the dead worker restarts 100 ms after its death, so a second
                // read could already see it running again.
                AtomicReference<CompositeHealthDescriptor> seen = new AtomicReference<>();
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> {
                    CompositeHealthDescriptor all = (CompositeHealthDescriptor) endpoint.health();
                    seen.set(all);
                    return all.getComponents().get("redkitQueues").getStatus()
                            .equals(RedkitCacheHealthIndicator.DEGRADED);
                });
                assertThat(seen.get().getStatus()).isIn(RedkitCacheHealthIndicator.DEGRADED, Status.DOWN);
                HealthDescriptor health = seen.get().getComponents().get("redkitQueues");
                assertThat(((IndicatedHealthDescriptor) health).getDetails()).containsEntry("orders",
                        java.util.Map.of("workers", 2, "running", 1, "persistence", "NO_AOF"));
            } finally {
                workers.close();
            }
        });
    }
}
