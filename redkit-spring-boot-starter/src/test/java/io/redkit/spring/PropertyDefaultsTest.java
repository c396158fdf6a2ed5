package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.redkit.DedicatedPoolConfig;
import io.redkit.cache.CacheConfig;
import io.redkit.limit.LimitsConfig;
import io.redkit.lock.LockConfig;
import io.redkit.session.SessionConfig;
import io.redkit.stream.StreamConfig;

/**
 * The defaults the properties write out (so that they load without the feature modules and an IDE shows them) are
 * the libraries' own: a library default that changes fails here until the property follows.
 */
class PropertyDefaultsTest {

    @Test
    void clientPoolDefaultsAreCores() {
        RedkitProperties.Pool pool = new RedkitProperties().getPool();
        assertThat(new DedicatedPoolConfig(pool.getMaxSize(), pool.getMaxIdle(), pool.getMaxWait()))
                .isEqualTo(DedicatedPoolConfig.DEFAULT);
    }

    @Test
    void cacheDefaultsAreRedkitCaches() {
        RedkitCacheProperties.Spec spec = new RedkitCacheProperties.Spec();
        assertThat(spec.getTtl()).isEqualTo(CacheConfig.DEFAULT_TTL);
        assertThat(spec.getTtlJitter()).isEqualTo(CacheConfig.DEFAULT_TTL_JITTER);
        assertThat(spec.getNegativeTtl()).isEqualTo(CacheConfig.DEFAULT_NEGATIVE_TTL);
        assertThat(spec.getFillLease()).isEqualTo(CacheConfig.DEFAULT_FILL_LEASE);
        assertThat(spec.getFillWait()).isEqualTo(CacheConfig.DEFAULT_FILL_WAIT);
        assertThat(spec.getNearCacheSize()).isEqualTo(CacheConfig.DEFAULT_NEAR_CACHE_SIZE);
        assertThat(spec.getNearCacheTtl()).isEqualTo(CacheConfig.DEFAULT_NEAR_CACHE_TTL);
        assertThat(spec.getBreakerWindow()).isEqualTo(CacheConfig.DEFAULT_BREAKER_WINDOW);
    }

    @Test
    void lockDefaultsAreRedkitLocks() {
        LockConfig config = RedkitLockConfiguration.lockConfig(new RedkitLockProperties());
        LockConfig library = LockConfig.defaults();
        assertThat(config.namespace()).isEqualTo(library.namespace());
        assertThat(config.ttl()).isEqualTo(library.ttl());
        assertThat(config.watchdog()).isEqualTo(library.watchdog());
        assertThat(config.maxWait()).isEqualTo(library.maxWait());
        assertThat(config.fenceRetention()).isEqualTo(library.fenceRetention());
        assertThat(config.tagLockNames()).isEqualTo(library.tagLockNames());
    }

    @Test
    void sessionDefaultsAreRedkitSessions() {
        assertThat(RedkitSessionConfiguration.sessionConfig(new RedkitSessionProperties()).toString())
                .isEqualTo(SessionConfig.defaults().toString());
    }

    @Test
    void limitAndQueueDefaultsAreTheirModules() {
        assertThat(new RedkitLimitProperties().getNamespace()).isEqualTo(LimitsConfig.DEFAULT_NAMESPACE);
        RedkitQueueProperties.Spec spec = new RedkitQueueProperties.Spec();
        assertThat(spec.getGroup()).isEqualTo(StreamConfig.DEFAULT_GROUP);
        assertThat(spec.getWorkers()).isEqualTo(StreamConfig.DEFAULT_WORKERS);
        assertThat(spec.getMaxLength()).isEqualTo(StreamConfig.DEFAULT_MAX_LENGTH);
        assertThat(spec.getMaxDeliveries()).isEqualTo(StreamConfig.DEFAULT_MAX_DELIVERIES);
        assertThat(spec.getVisibilityTimeout()).isEqualTo(StreamConfig.DEFAULT_VISIBILITY_TIMEOUT);
        assertThat(spec.getBatchSize()).isEqualTo(StreamConfig.DEFAULT_BATCH_SIZE);
    }
}
