package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Redkit;
import io.redkit.testing.RedisServerExtension;

/** {@link LockContract} on one real redis-server, plus the long watchdog run. */
class StandaloneLockIT extends LockContract {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @Override
    String url() {
        return redis.server().url();
    }

    @Override
    void pauseServerOf(String key) {
        redis.server().pause();
    }

    @Override
    void resumeAll() {
        redis.server().resume();
    }

    @Test
    void watchdogKeepsAThirtySecondJobAliveUnderAOneSecondTtl() throws Exception {
        Redkit redkit = client();
        Lock lock = locks(redkit, b -> b.ttl(Duration.ofSeconds(1))).lock(unique("long-job"));
        AtomicInteger checks = new AtomicInteger();
        long start = System.nanoTime();

        String result = lock.runLocked(Duration.ZERO, lease -> {
            while (System.nanoTime() - start < Duration.ofSeconds(30).toNanos()) {
                lease.ensureHeld();
                assertThat(redkit.commands().getString(lease.key())).contains(lease.ownerToken());
                checks.incrementAndGet();
                Thread.sleep(250); // the job's own work, not a wait for a condition
            }
            return "done";
        });

        System.out.printf("[figures] StandaloneLockIT 30 s job under a 1 s ttl: %d checks held%n", checks.get());
        assertThat(result).isEqualTo("done");
        assertThat(checks.get()).isGreaterThan(60);
        assertThat(redkit.commands().exists(lock.key())).isZero();
    }
}
