package io.redkit.spring.health;

import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.redkit.spring.RedkitCacheManager;
import io.redkit.spring.RedkitQueues;
import io.redkit.spring.RedkitSessions;

/**
 * The health contributors on Boot 3's health API ({@code org.springframework.boot.actuate.health}), each imported by
 * its feature's configuration (so only when the feature is configured), each only when that API is there, each off
 * with {@code management.health.redkit-<feature>.enabled=false}. Two levels, because the "enabled" condition's class
 * is itself part of that API: the outer class keeps it from being read without it. The Boot 4 starter has its own
 * class of this name on Boot 4's packages.
 */
public final class RedkitHealthConfiguration {

    private static final String HEALTH_API = "org.springframework.boot.actuate.health.HealthIndicator";

    private RedkitHealthConfiguration() {
    }

    /** {@code redkitCache}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = HEALTH_API)
    public static class Cache {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnEnabledHealthIndicator("redkit-cache")
        static class Enabled {

            @Bean
            @ConditionalOnMissingBean(name = "redkitCacheHealthIndicator")
            RedkitCacheHealthIndicator redkitCacheHealthIndicator(RedkitCacheManager caches) {
                return new RedkitCacheHealthIndicator(caches);
            }
        }
    }

    /** {@code redkitSessions}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = HEALTH_API)
    public static class Sessions {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnEnabledHealthIndicator("redkit-sessions")
        static class Enabled {

            @Bean
            @ConditionalOnMissingBean(name = "redkitSessionsHealthIndicator")
            RedkitSessionsHealthIndicator redkitSessionsHealthIndicator(RedkitSessions sessions) {
                return new RedkitSessionsHealthIndicator(sessions);
            }
        }
    }

    /** {@code redkitQueues}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = HEALTH_API)
    public static class Queues {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnEnabledHealthIndicator("redkit-queues")
        static class Enabled {

            @Bean
            @ConditionalOnMissingBean(name = "redkitQueuesHealthIndicator")
            RedkitQueuesHealthIndicator redkitQueuesHealthIndicator(RedkitQueues queues) {
                return new RedkitQueuesHealthIndicator(queues);
            }
        }
    }
}
