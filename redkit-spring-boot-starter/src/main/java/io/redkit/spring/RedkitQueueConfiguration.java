package io.redkit.spring;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.redkit.Redkit;
import io.redkit.stream.StreamQueue;

/** {@link RedkitQueues} from {@code redkit.queue.*} when redkit-stream is on the class path. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(StreamQueue.class)
class RedkitQueueConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    RedkitQueues redkitQueues(Redkit redkit, RedkitProperties properties) {
        return new RedkitQueues(redkit, properties.getQueue());
    }
}
