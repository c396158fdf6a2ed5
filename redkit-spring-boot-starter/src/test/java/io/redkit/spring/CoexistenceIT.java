package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.session.Session;
import org.springframework.session.SessionRepository;
import org.springframework.util.ClassUtils;

import io.redkit.Redkit;
import io.redkit.spring.Products.Catalog;
import io.redkit.spring.Products.Product;
import io.redkit.testing.RedisServerExtension;

/**
 * An application that already has {@code spring-boot-starter-data-redis} and Spring Session adds the starter: it
 * starts, with no bean conflicts, and the rule for the {@code CacheManager} is the documented one: redkit's when
 * {@code redkit.cache.caches} names a cache, else Spring Boot's own (Spring Data Redis's {@code RedisCacheManager}).
 */
class CoexistenceIT {

    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.standalone();

    /**
     * Spring Boot's Data Redis, cache and Spring Session auto-configuration, by name: Boot 4's (its own modules), or
     * Boot 3's (spring-boot-autoconfigure), whichever this class path has, so that the test runs on both lines
     * (redkit-spring-boot3-starter runs it on 3.5). A misspelt name shows as a missing bean below.
     */
    private static final String[] SPRING_BOOTS = {
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration",
        "org.springframework.boot.session.autoconfigure.SessionAutoConfiguration",
        "org.springframework.boot.session.data.redis.autoconfigure.SessionDataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.cache.CacheAutoConfiguration",
        "org.springframework.boot.autoconfigure.session.SessionAutoConfiguration"};

    private WebApplicationContextRunner runner() {
        ClassLoader loader = getClass().getClassLoader();
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class))
                .withConfiguration(AutoConfigurations.of(java.util.Arrays.stream(SPRING_BOOTS)
                        .filter(name -> ClassUtils.isPresent(name, loader))
                        .map(name -> ClassUtils.resolveClassName(name, loader)).toArray(Class<?>[]::new)))
                .withUserConfiguration(Products.App.class)
                .withPropertyValues("spring.data.redis.url=" + redis.url());
    }

    @Test
    void withRedkitCachesConfiguredRedkitsCacheManagerIsTheOneAndSpringsRedisBeansStillWork() {
        runner().withPropertyValues("redkit.cache.caches.products.value-type=" + Product.class.getName())
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(CacheManager.class).hasSingleBean(Redkit.class)
                            .hasSingleBean(RedisConnectionFactory.class).hasSingleBean(SessionRepository.class);
                    assertThat(context.getBean(CacheManager.class)).isInstanceOf(RedkitCacheManager.class);

                    // redkit took spring.data.redis.url: @Cacheable fills the server Spring Session writes to.
                    assertThat(context.getBean(Catalog.class).find(42)).isEqualTo(new Product(42, "product 42"));
                    assertThat(redis.command("EXISTS", "cache.products:{42}")).isEqualTo(1L);
                    assertSessionsWork(context.getBean(SessionRepository.class));
                });
    }

    @Test
    void withoutRedkitCachesSpringBootsRedisCacheManagerIsTheOne() {
        runner().run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(CacheManager.class).hasSingleBean(Redkit.class)
                    .doesNotHaveBean(RedkitCacheManager.class);
            assertThat(context.getBean(CacheManager.class)).isInstanceOf(RedisCacheManager.class);
            assertSessionsWork(context.getBean(SessionRepository.class));
        });
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void assertSessionsWork(SessionRepository repository) {
        Session session = repository.createSession();
        session.setAttribute("user", "ann");
        repository.save(session);
        Session found = repository.findById(session.getId());
        assertThat(found).isNotNull();
        assertThat((String) found.getAttribute("user")).isEqualTo("ann");
    }
}
