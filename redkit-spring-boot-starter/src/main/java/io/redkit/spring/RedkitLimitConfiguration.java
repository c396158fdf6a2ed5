package io.redkit.spring;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.redkit.Redkit;
import io.redkit.limit.Limits;
import io.redkit.limit.LimitsConfig;

/** The {@link Limits} bean and {@link RedkitLimiters} from {@code redkit.limit.*} when redkit-limit is there. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(Limits.class)
class RedkitLimitConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Limits redkitLimits(Redkit redkit, RedkitProperties properties) {
        RedkitLimitProperties p = properties.getLimit();
        LimitsConfig.Builder b = LimitsConfig.builder().namespace(p.getNamespace());
        if (p.getTimeout() != null) {
            b.timeout(p.getTimeout());
        }
        return Limits.create(redkit, b.build());
    }

    @Bean
    @ConditionalOnMissingBean
    RedkitLimiters redkitLimiters(Limits limits, RedkitProperties properties) {
        return new RedkitLimiters(limits, properties.getLimit());
    }
}
