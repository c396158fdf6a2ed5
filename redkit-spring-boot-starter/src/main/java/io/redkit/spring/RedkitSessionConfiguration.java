package io.redkit.spring;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.redkit.Redkit;
import io.redkit.json.Json;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionStore;
import io.redkit.spring.health.RedkitSessionsHealthIndicator;

/** {@link RedkitSessions} from {@code redkit.session.*} when redkit-session is on the class path, and its health. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(SessionStore.class)
class RedkitSessionConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RedkitSessions redkitSessions(Redkit redkit, RedkitProperties properties, ObjectProvider<Json> json) {
        return new RedkitSessions(redkit, sessionConfig(properties.getSession()), json.getIfAvailable());
    }

    static SessionConfig sessionConfig(RedkitSessionProperties p) {
        SessionConfig.Builder b = SessionConfig.builder().namespace(p.getNamespace()).idleTimeout(p.getIdleTimeout())
                .absoluteLifetime(p.getAbsoluteLifetime()).maxSessionBytes(p.getMaxSessionBytes())
                .dataVersion(p.getDataVersion());
        if (p.getTimeout() != null) {
            b.timeout(p.getTimeout());
        }
        return b.build();
    }

    /**
     * The sessions health contributor, {@code redkitSessions}, when Spring Boot's health API is there; off with
     * {@code management.health.redkit-sessions.enabled=false} (two levels: see {@link RedkitCacheConfiguration}).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Health {

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
}
