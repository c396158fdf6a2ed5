package io.redkit.spring;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.redkit.lock.Locks;
import io.redkit.shedlock.RedkitLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;

/**
 * ShedLock's {@link LockProvider} on the {@link Locks} bean when ShedLock and redkit-shedlock are on the class path,
 * so {@code @SchedulerLock} runs on redkit's owner-checked, bounded, replica-confirmed locks; an application's own
 * {@code LockProvider} wins.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({LockProvider.class, RedkitLockProvider.class, Locks.class})
class RedkitShedLockConfiguration {

    @Bean
    @ConditionalOnMissingBean(LockProvider.class)
    LockProvider redkitLockProvider(Locks locks) {
        return new RedkitLockProvider(locks);
    }
}
