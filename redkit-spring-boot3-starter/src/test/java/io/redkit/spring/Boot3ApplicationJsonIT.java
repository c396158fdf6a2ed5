package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;

import io.redkit.json.Json;
import io.redkit.testing.RedisServerExtension;

/**
 * A Boot 3 application configures Jackson 2 ({@code spring.jackson.*}) and has no Jackson 3: redkit's JSON is that
 * mapper (the Boot 4 starter's ApplicationJsonIT checks the same with Boot 4's Jackson 3 auto-configuration).
 */
class Boot3ApplicationJsonIT {

    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.standalone();

    /** A value with a two-word property, so the naming strategy shows. */
    record Price(long productId, BigDecimal listPrice) {
    }

    @Test
    void theApplicationsJackson2MapperWritesWhatRedkitStores() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class, JacksonAutoConfiguration.class))
                .withPropertyValues("redkit.url=" + redis.url(),
                        "redkit.cache.caches.prices.value-type=" + Price.class.getName(),
                        "spring.jackson.property-naming-strategy=SNAKE_CASE")
                .run(context -> {
                    assertThat(context.getBean(Json.class).describe()).startsWith("Jackson 2.19.")
                            .endsWith("(the application's mapper)");
                    Price price = new Price(7, new BigDecimal("19.90"));
                    context.getBean(CacheManager.class).getCache("prices").put(7L, price);
                    assertThat((String) redis.command("GET", "cache.prices:{7}")).contains("\"list_price\":19.90");
                });
    }
}
