package io.redkit.spring;

import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.cache.config.CacheManagementConfigUtils;
import org.springframework.cache.interceptor.CacheInterceptor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.redkit.Redkit;
import io.redkit.cache.CacheAside;
import io.redkit.json.Json;
import io.redkit.spring.health.RedkitHealthConfiguration;

/**
 * The {@link RedkitCacheManager} when redkit-cache is on the class path, at least one cache is configured and the
 * application has no {@code CacheManager} of its own; with its health contributor when Spring Boot's health API
 * is there.
 */
@Configuration(proxyBeanMethods = false)
@Import(RedkitHealthConfiguration.Cache.class)
@ConditionalOnClass({CacheAside.class, org.springframework.cache.CacheManager.class})
@Conditional(RedkitCacheConfiguration.CachesConfigured.class)
@ConditionalOnMissingBean(org.springframework.cache.CacheManager.class)
class RedkitCacheConfiguration {

    @Bean(destroyMethod = "close")
    RedkitCacheManager cacheManager(Redkit redkit, RedkitProperties properties, ObjectProvider<Json> json) {
        return new RedkitCacheManager(redkit, properties.getCache(), json.getIfAvailable(Json::defaults));
    }

    /**
     * A WARN when caches are configured but caching is not enabled: without {@code @EnableCaching}, {@code
     * @Cacheable} silently does nothing (every call loads) while the cache's health says all is well.
     */
    @Bean
    static SmartInitializingSingleton redkitCachingEnabledCheck(ListableBeanFactory beans) {
        return () -> {
            if (beans.getBeanNamesForType(CacheInterceptor.class, false, false).length == 0
                    && !beans.containsBean(CacheManagementConfigUtils.CACHE_ASPECT_BEAN_NAME)) {
                LoggerFactory.getLogger(RedkitCacheManager.class).warn("redkit: caches are configured"
                        + " (redkit.cache.caches) but caching is not enabled: @Cacheable and @CacheEvict do nothing"
                        + " until a @Configuration class has @EnableCaching");
            }
        };
    }

    /** Matches when {@code redkit.cache.caches} names at least one cache. */
    static final class CachesConfigured implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return Binder.get(context.getEnvironment()).bind("redkit.cache.caches", Bindable.mapOf(String.class,
                    Object.class)).map(m -> !m.isEmpty()).orElse(false);
        }
    }
}
