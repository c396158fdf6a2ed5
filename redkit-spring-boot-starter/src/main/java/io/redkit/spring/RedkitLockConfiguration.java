package io.redkit.spring;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.redkit.Redkit;
import io.redkit.lock.LockConfig;
import io.redkit.lock.Locks;

/** A {@link Locks} bean from {@code redkit.lock.*} when redkit-lock is on the class path. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(Locks.class)
class RedkitLockConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    Locks redkitLocks(Redkit redkit, RedkitProperties properties) {
        return Locks.create(redkit, lockConfig(properties.getLock()));
    }

    static LockConfig lockConfig(RedkitLockProperties p) {
        return LockConfig.builder().namespace(p.getNamespace()).ttl(p.getTtl()).watchdog(p.isWatchdog())
                .maxWait(p.getMaxWait()).fenceRetention(p.getFenceRetention()).tagLockNames(p.isTagLockNames())
                .build();
    }
}
