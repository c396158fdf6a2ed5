package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.redkit.limit.Decision;
import io.redkit.session.Session;
import io.redkit.session.SessionStore;
import io.redkit.session.SessionStoreUnavailableException;
import io.redkit.spring.health.RedkitSessionsHealthIndicator;
import io.redkit.spring.internal.HealthReport;
import io.redkit.stream.StreamQueue;
import io.redkit.stream.Workers;
import io.redkit.testing.RedisServerExtension;

/** Sessions, limiters and queues from properties, against a real redis-server. */
class FeatureBeansIT {

    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.standalone();

    /** Session data. */
    record Account(String name) {
    }

    /** A queue payload. */
    record Order(long id) {
    }

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class))
                .withPropertyValues("redkit.url=" + redis.url());
    }

    @Test
    void sessionsAreOutOfServiceWhileRedisIsDownAndUpAfter() {
        runner().withPropertyValues("redkit.session.idle-timeout=5m").run(context -> {
            assertThat(context).hasSingleBean(RedkitSessionsHealthIndicator.class);
            RedkitSessions sessions = context.getBean(RedkitSessions.class);
            assertThat(HealthReport.sessions(sessions).status()).isEqualTo("UNKNOWN");
            SessionStore<Account> store = sessions.store(Account.class);
            assertThat(store.config().idleTimeout()).isEqualTo(Duration.ofMinutes(5));
            Session<Account> session = store.create("u1", new Account("ann"));
            assertThat(HealthReport.sessions(sessions).status()).isEqualTo("UP");
            redis.kill();
            assertThatThrownBy(() -> store.load(session.id())).isInstanceOf(SessionStoreUnavailableException.class);
            assertThat(HealthReport.sessions(sessions).status()).isEqualTo("OUT_OF_SERVICE");
            assertThat(HealthReport.sessions(sessions).details()).containsKey("cause");
            redis.restart();
            await().atMost(Duration.ofSeconds(15)).until(() -> HealthReport.sessions(sessions).status().equals("UP"));
        });
    }

    @Test
    void oneSessionTypePerStore() {
        runner().run(context -> {
            RedkitSessions sessions = context.getBean(RedkitSessions.class);
            assertThat(sessions.store(Account.class)).isSameAs(sessions.store(Account.class));
            assertThatThrownBy(() -> sessions.store(Order.class)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("one type per store");
        });
    }

    @Test
    void aConfiguredLimiterRefusesAtItsLimit() {
        runner().withPropertyValues("redkit.limit.limiters.api.when-unavailable=fail_open",
                "redkit.limit.limiters.api.limits[0].permits=2", "redkit.limit.limiters.api.limits[0].period=1m")
                .run(context -> {
                    RedkitLimiters limiters = context.getBean(RedkitLimiters.class);
                    assertThat(limiters.get("api").tryAcquire("u1").allowed()).isTrue();
                    assertThat(limiters.get("api").tryAcquire("u1").allowed()).isTrue();
                    Decision third = limiters.get("api").tryAcquire("u1");
                    assertThat(third.allowed()).isFalse();
                    assertThat(third.counted()).isTrue();
                    assertThatThrownBy(() -> limiters.get("other")).isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining("[api]");
                });
    }

    @Test
    void aLimiterWithoutAPolicyOrWithABadLimitFailsStartUpNamingIt() {
        runner().withPropertyValues("redkit.limit.limiters.api.limits[0].permits=2",
                "redkit.limit.limiters.api.limits[0].period=1s").run(context ->
                        assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure()))
                                .contains("redkit.limit.limiters.api: when-unavailable is required"));
        runner().withPropertyValues("redkit.limit.limiters.api.when-unavailable=FAIL_CLOSED",
                "redkit.limit.limiters.api.algorithm=FIXED_WINDOW", "redkit.limit.limiters.api.limits[0].permits=2",
                "redkit.limit.limiters.api.limits[0].period=1s", "redkit.limit.limiters.api.limits[0].burst=5")
                .run(context -> assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure()))
                        .contains("burst is for GCRA only"));
        runner().withPropertyValues("redkit.limit.limiters.api.when-unavailable=FAIL_CLOSED")
                .run(context -> assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure()))
                        .contains("needs at least one limit"));
        runner().withPropertyValues("redkit.limit.limiters.api.when-unavailable=SOMETIMES",
                "redkit.limit.limiters.api.limits[0].permits=2", "redkit.limit.limiters.api.limits[0].period=1s")
                .run(context -> assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure()))
                        .contains("redkit.limit.limiters.api: when-unavailable must be one of [FAIL_OPEN, FAIL_CLOSED],"
                                + " was 'SOMETIMES'"));
    }

    @Test
    void aQueueIsBuiltByNameAndTypeWithItsProperties() {
        runner().withPropertyValues("redkit.queue.queues.orders.max-deliveries=3").run(context -> {
            RedkitQueues queues = context.getBean(RedkitQueues.class);
            StreamQueue<Order> orders = queues.queue("orders", Order.class);
            assertThat(orders.config().maxDeliveries()).isEqualTo(3);
            assertThat(queues.queue("orders", Order.class)).isSameAs(orders);
            assertThatThrownBy(() -> queues.queue("orders", Account.class))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("one payload type per queue");
            List<Order> received = new CopyOnWriteArrayList<>();
            Workers workers = orders.start(m -> received.add(m.payload()));
            try {
                orders.publish(new Order(9));
                await().atMost(Duration.ofSeconds(10)).until(() -> received.contains(new Order(9)));
            } finally {
                workers.close();
            }
            assertThat(queues.queue("unlisted", Order.class).config().maxDeliveries()).isEqualTo(5);
        });
    }

    @Test
    void aBadLockOrSessionSettingFailsStartUpNamingIt() {
        runner().withPropertyValues("redkit.lock.ttl=50ms").run(context ->
                assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure())).contains("ttl must be"));
        runner().withPropertyValues("redkit.session.idle-timeout=2h", "redkit.session.absolute-lifetime=1h")
                .run(context -> assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure()))
                        .contains("absoluteLifetime (PT1H) must be at least the idleTimeout (PT2H)"));
    }

    @Test
    void aQueueWithABadSettingFailsStartUpNamingIt() {
        runner().withPropertyValues("redkit.queue.queues.orders.workers=0").run(context ->
                assertThat(RedkitAutoConfigurationIT.messages(context.getStartupFailure()))
                        .contains("redkit.queue.queues.orders"));
    }
}
