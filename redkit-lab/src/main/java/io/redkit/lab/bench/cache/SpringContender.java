package io.redkit.lab.bench.cache;

import java.time.Duration;
import java.util.Set;

import org.springframework.cache.Cache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.serializer.Jackson2JsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.SpringFactories;

/**
 * Spring's cache abstraction over Redis as a Spring Boot service gets it: {@code RedisCacheManager} on a
 * {@code LettuceConnectionFactory} (its own Lettuce client, one shared native connection, the default), values as
 * JSON through {@code Jackson2JsonRedisSerializer<Product>} on the same Jackson 2 as the other contenders (Spring
 * Data Redis 4.1 deprecates it in favour of a Jackson 3 serializer, which would bring a second Jackson). A hit is
 * {@code Cache.get(key, Product.class)}; a miss storm uses {@code Cache.get(key, Callable)}, which is what
 * {@code @Cacheable(sync = true)} calls. The default cache writer takes no lock; {@code locking} uses
 * {@code RedisCacheWriter.lockingRedisCacheWriter}, a Redis lock per cache name (not per key).
 */
final class SpringContender extends CacheContender {

    private final boolean locking;
    private LettuceConnectionFactory factory;
    private Cache cache;

    SpringContender(boolean locking) {
        super(locking ? "spring-locking" : "spring");
        this.locking = locking;
    }

    @Override
    @SuppressWarnings("removal")
    public void setup(BenchEnv env) {
        factory = SpringFactories.started(env);
        RedisCacheConfiguration config = RedisCacheConfiguration.defaultCacheConfig().entryTtl(Duration.ofHours(1))
                .disableCachingNullValues()
                .serializeValuesWith(SerializationPair.fromSerializer(
                        new Jackson2JsonRedisSerializer<>(Products.MAPPER, Product.class)));
        RedisCacheWriter writer = locking ? RedisCacheWriter.lockingRedisCacheWriter(factory)
                : RedisCacheWriter.nonLockingRedisCacheWriter(factory);
        String name = locking ? "bench-product-locking" : "bench-product";
        RedisCacheManager manager = RedisCacheManager.builder(writer).cacheDefaults(config)
                .initialCacheNames(Set.of(name)).build();
        manager.afterPropertiesSet();
        cache = manager.getCache(name);
        for (int i = 0; i < Products.KEYS; i++) {
            cache.put(Products.id(i), Products.product(i));
        }
    }

    @Override
    Product read(Integer id) {
        return cache.get(id, Product.class);
    }

    @Override
    Product readThrough(Integer id) {
        return cache.get(id, () -> source.load(id));
    }

    @Override
    public void close() {
        if (factory != null) {
            factory.destroy();
        }
    }
}
