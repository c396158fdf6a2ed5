package io.redkit.spring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.json.Json;
import io.redkit.spring.internal.ApplicationJson;

/**
 * Auto-configuration of one {@link Redkit} from {@code redkit.*} (or {@code REDIS_URL}), closed with the context,
 * its meters in the context's {@link MeterRegistry} when there is one; and of each feature whose module is on the
 * class path: locks, caches (a Spring {@code CacheManager}), limiters, sessions and queues, with health
 * contributors when Spring Boot's health API is there.
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.metrics.autoconfigure."
        + "CompositeMeterRegistryAutoConfiguration",
        beforeName = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration")
@ConditionalOnClass(Redkit.class)
@EnableConfigurationProperties(RedkitProperties.class)
@Import({RedkitLockConfiguration.class, RedkitShedLockConfiguration.class, RedkitCacheConfiguration.class, RedkitLimitConfiguration.class,
        RedkitSessionConfiguration.class, RedkitQueueConfiguration.class})
public class RedkitAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RedkitAutoConfiguration.class);

    /**
     * The client configuration: the URL, then each {@code redkit.*} setting that was given, the context's meter
     * registry and observation registry when there is exactly one of each, and command tracing when asked or,
     * unasked, when a Micrometer Tracing {@code Tracer} is there.
     */
    @Bean
    @ConditionalOnMissingBean
    public RedkitConfig redkitConfig(RedkitProperties properties, Environment environment,
            ObjectProvider<MeterRegistry> meters, ObjectProvider<ObservationRegistry> observations,
            ListableBeanFactory beans) {
        ClientSettings.Url url = ClientSettings.url(properties, environment);
        ObservationRegistry registry = observations.getIfUnique();
        boolean traceCommands = registry != null && (properties.getTraceCommands() != null
                ? properties.getTraceCommands() : ClientSettings.hasTracer(beans));
        RedkitConfig config = ClientSettings.config(properties, url.url(), meters.getIfUnique()).toBuilder()
                .observationRegistry(registry).traceCommands(traceCommands).build();
        log.info("redkit '{}': Redis at {} (from {}); {}", config.name(), config.maskedUrl(), url.source(),
                registry == null ? "no ObservationRegistry, nothing traced" : traceCommands
                        ? "operations and commands observed" : "operations observed, commands not");
        return config;
    }

    /** The client: connects at start-up (a wrong address or password fails the start), closed with the context. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Redkit redkit(RedkitConfig config) {
        return Redkit.create(config);
    }

    /**
     * The JSON of the caches, sessions and queues: the application's Jackson 3 {@code JsonMapper} bean, else its
     * Jackson 2 {@code ObjectMapper} bean, else redkit's own mapper ({@link Json#defaults()}). Defined only when a
     * Jackson is on the class path; an application with neither gives each module its own codec.
     */
    @Bean
    @ConditionalOnMissingBean
    @Conditional(JacksonPresent.class)
    public Json redkitJson(ListableBeanFactory beans) {
        Json json = ApplicationJson.of(beans);
        log.info("redkit: JSON of caches, sessions and queues through {}", json.describe());
        return json;
    }

    /** Matches when Jackson 3 or Jackson 2 is on the class path. */
    static final class JacksonPresent extends AnyNestedCondition {

        JacksonPresent() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnClass(name = "tools.jackson.databind.json.JsonMapper")
        static final class Jackson3 {
        }

        @ConditionalOnClass(name = "com.fasterxml.jackson.databind.ObjectMapper")
        static final class Jackson2 {
        }
    }
}
