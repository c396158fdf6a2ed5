package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;

import io.redkit.json.Json;
import io.redkit.session.SessionStore;
import io.redkit.stream.StreamQueue;
import io.redkit.testing.RedisServerExtension;

/**
 * A Boot 4 application configures Jackson 3 ({@code spring.jackson.*}, its modules): what redkit's caches, sessions
 * and queues store is written by that mapper, not by a second, unconfigured one.
 */
class ApplicationJsonIT {

    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.standalone();

    /** A value with a two-word property, so the naming strategy shows. */
    record Price(long productId, BigDecimal listPrice) {
    }

    private static final Price PRICE = new Price(7, new BigDecimal("19.90"));

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class))
                .withPropertyValues("redkit.url=" + redis.url(),
                        "redkit.cache.caches.prices.value-type=" + Price.class.getName());
    }

    @Test
    void theApplicationsJackson3MapperWritesWhatRedkitStores() {
        runner().withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
                .withPropertyValues("spring.jackson.property-naming-strategy=SNAKE_CASE")
                .run(context -> {
                    assertThat(context.getBean(Json.class).describe()).startsWith("Jackson 3.")
                            .endsWith("(the application's mapper)");
                    assertThat(storedByEachFeature(context)).allSatisfy(stored ->
                            assertThat(stored).contains("\"list_price\":19.90").doesNotContain("listPrice"));
                });
    }

    @Test
    void withoutAnApplicationMapperRedkitsOwnIsUsed() {
        runner().run(context -> {
            assertThat(context.getBean(Json.class).describe()).startsWith("Jackson 3.").endsWith("(redkit's mapper)");
            assertThat(storedByEachFeature(context)).allSatisfy(stored ->
                    assertThat(stored).contains("\"listPrice\":19.90"));
        });
    }

    @Test
    void aJsonBeanOfTheApplicationsOwnWins() {
        var mapper = tools.jackson.databind.json.JsonMapper.builder()
                .propertyNamingStrategy(tools.jackson.databind.PropertyNamingStrategies.KEBAB_CASE).build();
        runner().withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
                .withBean(Json.class, () -> io.redkit.json.Jackson3Json.of(mapper))
                .run(context -> assertThat(storedByEachFeature(context)).allSatisfy(stored ->
                        assertThat(stored).contains("\"list-price\":19.90")));
    }

    /** What Redis holds after a cache put, a session create and a queue publish: one dump per feature. */
    private List<String> storedByEachFeature(AssertableApplicationContext context) {
        List<String> stored = new ArrayList<>();
        context.getBean(CacheManager.class).getCache("prices").put(7L, PRICE);
        stored.add(dump());
        redis.flushAll();
        SessionStore<Price> sessions = context.getBean(RedkitSessions.class).store(Price.class);
        sessions.create("u1", PRICE);
        stored.add(dump());
        redis.flushAll();
        StreamQueue<Price> queue = context.getBean(RedkitQueues.class).queue("prices", Price.class);
        queue.publish(PRICE);
        stored.add(dump());
        return stored;
    }

    /** Every string value and stream entry in the server, as text. */
    private String dump() {
        StringBuilder all = new StringBuilder();
        for (Object key : (List<?>) redis.command("KEYS", "*")) {
            String k = String.valueOf(key);
            switch (String.valueOf(redis.command("TYPE", k))) {
                case "string" -> all.append(redis.command("GET", k)).append('\n');
                case "stream" -> all.append(redis.command("XRANGE", k, "-", "+")).append('\n');
                default -> {
                    // indexes and sets hold no values
                }
            }
        }
        return all.toString();
    }
}
