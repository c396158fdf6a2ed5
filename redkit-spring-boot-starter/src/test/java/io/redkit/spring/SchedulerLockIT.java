package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import io.redkit.Redkit;
import io.redkit.shedlock.RedkitLockProvider;
import io.redkit.testing.RedisServerExtension;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;

/** Two application contexts, two "instances" of one service, with the same cron: the job runs once per tick. */
class SchedulerLockIT {

    @RegisterExtension
    final RedisServerExtension redis = RedisServerExtension.standalone();

    /** The job: counts its runs per second of the schedule in Redis, which both instances share. */
    static class EverySecond {
        private final Redkit redkit;

        EverySecond(Redkit redkit) {
            this.redkit = redkit;
        }

        @Scheduled(cron = "* * * * * *")
        @SchedulerLock(name = "every-second", lockAtMostFor = "5s", lockAtLeastFor = "500ms")
        void run() {
            redkit.commands().incr("runs:" + Instant.now().getEpochSecond());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @EnableSchedulerLock(defaultLockAtMostFor = "10s")
    static class Service {
        @Bean
        EverySecond everySecond(Redkit redkit) {
            return new EverySecond(redkit);
        }
    }

    @Test
    void twoInstancesWithTheSameCronRunTheJobOncePerTick() {
        ApplicationContextRunner instance = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedkitAutoConfiguration.class))
                .withUserConfiguration(Service.class)
                .withPropertyValues("redkit.url=" + redis.url());
        // B's scheduler runs 300 ms behind: the same tick fires there after A's run has ended, which only
        // lockAtLeastFor stops (without it B ran every tick a second time).
        ApplicationContextRunner lateInstance = instance.withBean("taskScheduler", TaskScheduler.class, () -> {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setClock(Clock.offset(Clock.systemDefaultZone(), Duration.ofMillis(-300)));
            return scheduler;
        });
        instance.run(a -> lateInstance.run(b -> {
            assertThat(a.getBean(LockProvider.class)).isInstanceOf(RedkitLockProvider.class);
            assertThat(b.getBean(LockProvider.class)).isInstanceOf(RedkitLockProvider.class);
            Redkit redkit = a.getBean(Redkit.class);

            await().atMost(Duration.ofSeconds(30)).until(() -> runsPerTick(redkit).size() >= 8);

            Map<String, Long> runs = runsPerTick(redkit);
            System.out.printf("[figures] SchedulerLockIT runs per tick over two instances: %s%n", runs);
            assertThat(runs).allSatisfy((tick, count) -> assertThat(count).as(tick).isEqualTo(1));
        }));
    }

    private static Map<String, Long> runsPerTick(Redkit redkit) {
        List<String> keys = new ArrayList<>();
        redkit.commands().scan("runs:*", 100, keys::addAll);
        Map<String, Long> runs = new TreeMap<>();
        for (String key : keys) {
            runs.put(key, Long.parseLong(redkit.commands().getString(key).orElse("0")));
        }
        return runs;
    }
}
