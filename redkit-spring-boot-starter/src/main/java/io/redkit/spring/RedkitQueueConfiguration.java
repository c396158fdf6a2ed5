package io.redkit.spring;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.redkit.Redkit;
import io.redkit.json.Json;
import io.redkit.spring.health.RedkitQueuesHealthIndicator;
import io.redkit.stream.StreamQueue;

/** {@link RedkitQueues} from {@code redkit.queue.*} when redkit-stream is on the class path, and their health. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(StreamQueue.class)
class RedkitQueueConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    RedkitQueues redkitQueues(Redkit redkit, RedkitProperties properties, ObjectProvider<Json> json) {
        return new RedkitQueues(redkit, properties.getQueue(), json.getIfAvailable());
    }

    /**
     * The queues' health contributor, {@code redkitQueues}, when Spring Boot's health API is there; off with
     * {@code management.health.redkit-queues.enabled=false}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Health {

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
