package io.redkit.spring;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import io.redkit.Redkit;
import io.redkit.json.Json;
import io.redkit.spring.health.RedkitHealthConfiguration;
import io.redkit.stream.StreamQueue;

/** {@link RedkitQueues} from {@code redkit.queue.*} when redkit-stream is on the class path, and their health. */
@Configuration(proxyBeanMethods = false)
@Import(RedkitHealthConfiguration.Queues.class)
@ConditionalOnClass(StreamQueue.class)
class RedkitQueueConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    RedkitQueues redkitQueues(Redkit redkit, RedkitProperties properties, ObjectProvider<Json> json) {
        return new RedkitQueues(redkit, properties.getQueue(), json.getIfAvailable());
    }
}
