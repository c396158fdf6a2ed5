package io.redkit.spring;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import io.redkit.Redkit;
import io.redkit.json.Json;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionStore;
import io.redkit.spring.health.RedkitHealthConfiguration;

/** {@link RedkitSessions} from {@code redkit.session.*} when redkit-session is on the class path, and its health. */
@Configuration(proxyBeanMethods = false)
@Import(RedkitHealthConfiguration.Sessions.class)
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
}
