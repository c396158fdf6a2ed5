package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

import io.redkit.cache.CacheAside;
import io.redkit.cache.NearCacheInvalidation;
import io.redkit.cache.internal.DefaultCacheAside;
import io.redkit.spring.Products.Catalog;
import io.redkit.spring.Products.Product;
import io.redkit.spring.health.RedkitCacheHealthIndicator;
import io.redkit.spring.internal.HealthReport;
import io.redkit.testing.RedisServerExtension;

/** {@code @Cacheable} over redkit-cache through the starter's CacheManager, against a real redis-server. */
class SpringCacheIT {

    // One server per test: the tests pause it and count its keys.
    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.standalone();

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class))
                .withUserConfiguration(Products.App.class)
                .withPropertyValues("redkit.url=" + redis.url(),
                        "redkit.cache.caches.products.value-type=" + Product.class.getName(),
                        "redkit.cache.caches.products.breaker-window=2");
    }

    @Test
    void fiftyConcurrentCallersOfOneColdKeyLoadOnceAndTheNextCallIsAHit() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            CountDownLatch gate = new CountDownLatch(1);
            catalog.hold(gate);
            ExecutorService pool = Executors.newFixedThreadPool(50);
            try {
                CyclicBarrier start = new CyclicBarrier(50);
                List<Thread> callers = new ArrayList<>();
                List<Future<Product>> results = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    results.add(pool.submit(() -> {
                        synchronized (callers) {
                            callers.add(Thread.currentThread());
                        }
                        start.await();
                        return catalog.find(42);
                    }));
                }
                // Every caller is inside the cache: one in the method, held at the gate, the others waiting on it.
                await().atMost(Duration.ofSeconds(10)).until(() -> callers.size() == 50 && callers.stream()
                        .allMatch(t -> t.getState() == Thread.State.WAITING) && catalog.loads() >= 1);
                gate.countDown();
                for (Future<Product> r : results) {
                    assertThat(r.get()).isEqualTo(new Product(42, "product 42"));
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(catalog.loads()).isEqualTo(1);
            long hits = aside(context).stats().hits();
            assertThat(catalog.find(42)).isEqualTo(new Product(42, "product 42"));
            assertThat(catalog.loads()).isEqualTo(1);
            assertThat(aside(context).stats().hits()).isEqualTo(hits + 1);
            assertThat(redis.command("EXISTS", "cache.products:{42}")).isEqualTo(1L);
        });
    }

    /** A value with java.time fields, as most entities have. */
    record Event(long id, java.time.Instant at, java.time.LocalDate day) {
    }

    @Test
    void valuesWithJavaTimeFieldsAreCached() {
        runner().withPropertyValues("redkit.cache.caches.events.value-type=" + Event.class.getName()).run(context -> {
            Cache events = context.getBean(CacheManager.class).getCache("events");
            Event event = new Event(7, java.time.Instant.parse("2026-12-03T10:15:30.123456Z"),
                    java.time.LocalDate.of(2026, 12, 3));
            List<Long> loads = new ArrayList<>();

            Event first = events.get(7L, () -> {
                loads.add(7L);
                return event;
            });
            Event second = events.get(7L, () -> {
                loads.add(7L);
                return event;
            });

            assertThat(first).isEqualTo(event);
            assertThat(second).isEqualTo(event);
            assertThat(loads).as("the second read is a hit, not another load").hasSize(1);
            assertThat(redis.command("EXISTS", "cache.events:{7}")).isEqualTo(1L);
        });
    }

    @Test
    void theNearCacheIsInvalidatedByTheServerUnlessTheChannelIsAskedFor() {
        runner().withPropertyValues("redkit.cache.caches.products.near-cache-size=100").run(context ->
                assertThat(nearMode(context)).contains(NearCacheInvalidation.TRACKING));
        runner().withPropertyValues("redkit.cache.caches.products.near-cache-size=100",
                "redkit.cache.caches.products.near-cache-invalidation=pubsub").run(context ->
                assertThat(nearMode(context)).contains(NearCacheInvalidation.PUBSUB));
    }

    private static java.util.Optional<NearCacheInvalidation> nearMode(AssertableApplicationContext context) {
        Cache cache = context.getBean(CacheManager.class).getCache("products");
        return ((DefaultCacheAside<?, ?>) cache.getNativeCache()).nearCacheInvalidation();
    }

    @Test
    void evictMakesTheNextCallLoadAgain() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            catalog.find(1);
            catalog.update(1);
            assertThat(redis.command("EXISTS", "cache.products:{1}")).isEqualTo(0L);
            catalog.find(1);
            assertThat(catalog.loads()).isEqualTo(2);
        });
    }

    @Test
    void clearDeletesEveryEntryOfTheCacheAndNoOther() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            catalog.find(1);
            catalog.find(2);
            redis.command("SET", "cache.other:{1}", "x");
            context.getBean(CacheManager.class).getCache("products").clear();
            assertThat(redis.command("EXISTS", "cache.products:{1}", "cache.products:{2}")).isEqualTo(0L);
            assertThat(redis.command("EXISTS", "cache.other:{1}")).isEqualTo(1L);
            catalog.find(1);
            assertThat(catalog.loads()).isEqualTo(3);
        });
    }

    @Test
    void aNullResultIsCachedAsNotFound() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            assertThat(catalog.find(-1)).isNull();
            assertThat(catalog.find(-1)).isNull();
            assertThat(catalog.loads()).isEqualTo(1);
            Cache.ValueWrapper cached = context.getBean(CacheManager.class).getCache("products").get(-1L);
            assertThat(cached).isNotNull();
            assertThat(cached.get()).isNull();
        });
    }

    @Test
    void theMethodsExceptionReachesTheCallerAndNothingIsCached() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            assertThatThrownBy(() -> catalog.find(13)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("the database refused id 13");
            assertThatThrownBy(() -> catalog.find(13)).isInstanceOf(IllegalStateException.class);
            assertThat(catalog.loads()).isEqualTo(2);
        });
    }

    @Test
    void entriesDecodeToTheDeclaredTypeOnlyNeverToATypeTheyName() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            assertThat(catalog.find(7)).isInstanceOf(Products.SpecialProduct.class);
            Product cached = catalog.find(7);
            assertThat(cached.getClass()).isEqualTo(Product.class);
            assertThat((String) redis.command("GET", "cache.products:{7}")).doesNotContain("SpecialProduct");
        });
    }

    @Test
    void plainCacheableGetsAndPutsThroughTheCache() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            assertThat(catalog.findNotSync(5)).isEqualTo(new Product(5, "product 5"));
            assertThat(catalog.findNotSync(5)).isEqualTo(new Product(5, "product 5"));
            assertThat(catalog.loads()).isEqualTo(1);
            assertThat(catalog.find(5)).isEqualTo(new Product(5, "product 5"));
            assertThat(catalog.loads()).isEqualTo(1);
        });
    }

    @Test
    void putReplacesAndRefusesAValueOfAnotherType() {
        runner().run(context -> {
            Cache cache = context.getBean(CacheManager.class).getCache("products");
            cache.put(3L, new Product(3, "old"));
            cache.put(3L, new Product(3, "new"));
            assertThat(cache.get(3L, Product.class)).isEqualTo(new Product(3, "new"));
            assertThat(cache.putIfAbsent(3L, new Product(3, "newer")).get()).isEqualTo(new Product(3, "new"));
            assertThat(cache.putIfAbsent(4L, new Product(4, "first"))).isNull();
            assertThat(cache.get(4L, Product.class)).isEqualTo(new Product(4, "first"));
            assertThatThrownBy(() -> cache.put(3L, "a string")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(Product.class.getName());
            assertThatThrownBy(() -> cache.get(3L, String.class)).isInstanceOf(IllegalStateException.class);
            assertThat(cache.evictIfPresent(3L)).isTrue();
            assertThat(cache.evictIfPresent(3L)).isFalse();
            assertThat(cache.get(3L)).isNull();
        });
    }

    @Test
    void anUnknownCacheIsNullAndFailsTheCallNamingIt() {
        runner().run(context -> {
            assertThat(context.getBean(CacheManager.class).getCache("nope")).isNull();
            assertThat(context.getBean(CacheManager.class).getCacheNames()).containsExactly("products");
            assertThatThrownBy(() -> context.getBean(Catalog.class).fromAnUnknownCache(1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope");
        });
    }

    @Test
    void aCacheWithoutValueTypeOrWithABadSettingFailsStartUpNamingIt() {
        runner().withPropertyValues("redkit.cache.caches.orders.ttl=5m").run(context ->
                assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure()))
                        .contains("redkit.cache.caches.orders.value-type is required"));
        runner().withPropertyValues("redkit.cache.caches.orders.value-type=java.lang.Object").run(context ->
                assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure())).contains("not Object"));
        runner().withPropertyValues("redkit.cache.caches.orders.value-type=long").run(context ->
                assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure())).contains("primitive"));
        runner().withPropertyValues("redkit.cache.caches.products.ttl-jitter=2").run(context ->
                assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure()))
                        .contains("redkit.cache.caches.products: ttlJitter must be within 0-1"));
        runner().withPropertyValues("redkit.cache.caches.[a*b].value-type=java.lang.String").run(context ->
                assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure()))
                        .contains("redkit.cache.caches.a*b: name must be"));
    }

    @Test
    void healthIsDegradedWhileRedisIsPausedAndUpAfter() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            assertThat(context).hasSingleBean(RedkitCacheHealthIndicator.class);
            RedkitCacheManager caches = context.getBean(RedkitCacheManager.class);
            assertThat(HealthReport.caches(caches).status()).isEqualTo("UP");
            redis.pause();
            for (long id = 100; id < 104; id++) {
                assertThat(catalog.find(id)).isEqualTo(new Product(id, "product " + id));
            }
            assertThat(HealthReport.caches(caches).status()).isEqualTo(HealthReport.DEGRADED);
            assertThat(HealthReport.caches(caches).details()).containsKey("products");
            redis.resume();
            await().atMost(Duration.ofSeconds(10)).until(() -> HealthReport.caches(caches).status().equals("UP"));
        });
    }

    @Test
    void healthIsDegradedWhileRedisIsKilledAndReadsStillAnswer() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            assertThat(context).hasSingleBean(RedkitCacheHealthIndicator.class);
            RedkitCacheManager caches = context.getBean(RedkitCacheManager.class);
            redis.kill();
            for (long id = 200; id < 204; id++) {
                assertThat(catalog.find(id)).isEqualTo(new Product(id, "product " + id));
            }
            assertThat(HealthReport.caches(caches).status()).isEqualTo(HealthReport.DEGRADED);
            redis.restart();
            await().atMost(Duration.ofSeconds(15)).until(() -> HealthReport.caches(caches).status().equals("UP"));
        });
    }

    @Test
    void plainCacheableStillAnswersWhileRedisIsDownAndFillsAgainAfter() {
        runner().run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            redis.kill();
            for (long id = 300; id < 306; id++) {
                assertThat(catalog.findNotSync(id)).isEqualTo(new Product(id, "product " + id));
            }
            RedkitCacheManager caches = context.getBean(RedkitCacheManager.class);
            assertThat(HealthReport.caches(caches).status()).isEqualTo(HealthReport.DEGRADED);
            redis.restart();
            await().atMost(Duration.ofSeconds(15)).until(() -> HealthReport.caches(caches).status().equals("UP"));
            catalog.findNotSync(300);
            assertThat(redis.command("EXISTS", "cache.products:{300}")).isEqualTo(1L);
        });
    }

    @SuppressWarnings("unchecked")
    private static CacheAside<Object, Object> aside(AssertableApplicationContext context) {
        return (CacheAside<Object, Object>) context.getBean(CacheManager.class).getCache("products").getNativeCache();
    }
}
