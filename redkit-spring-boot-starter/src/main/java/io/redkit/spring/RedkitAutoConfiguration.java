package io.redkit.spring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import io.micrometer.core.instrument.MeterRegistry;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;

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
     * The client configuration: the URL, then each {@code redkit.*} setting that was given, and the context's
     * meter registry when there is exactly one.
     */
    @Bean
    @ConditionalOnMissingBean
    public RedkitConfig redkitConfig(RedkitProperties properties, Environment environment,
            ObjectProvider<MeterRegistry> meters) {
        ClientSettings.Url url = ClientSettings.url(properties, environment);
        RedkitConfig config = ClientSettings.config(properties, url.url(), meters.getIfUnique());
        log.info("redkit '{}': Redis at {} (from {})", config.name(), config.maskedUrl(), url.source());
        return config;
    }

    /** The client: connects at start-up (a wrong address or password fails the start), closed with the context. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Redkit redkit(RedkitConfig config) {
        return Redkit.create(config);
    }
}
