package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisSentinelExtension;
import io.redkit.testing.RedisServer;

/** A Sentinel failover as a service sees it: the master dies, and writes find the new one on their own. */
class SentinelFailoverIT {

    @RegisterExtension
    static final RedisSentinelExtension sentinel = RedisSentinelExtension.create();

    @Test
    void writesReachTheNewMasterWithinFailoverTimePlusTwoSeconds() throws Exception {
        try (Redkit redkit = Redkit.connect(sentinel.group().url())) {
            RedisOps redis = redkit.commands();
            String key = KeySchema.of("test").key("sentinel", "counter");
            redis.setString(key, "before", Duration.ofMinutes(5));
            RedisServer oldMaster = sentinel.group().master();

            long killedAt = System.nanoTime();
            oldMaster.kill();
            AtomicLong failures = new AtomicLong();
            Thread writer = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        redis.setString(key, "after", Duration.ofMinutes(5));
                        return;
                    } catch (RedkitException e) {
                        failures.incrementAndGet();
                        try {
                            Thread.sleep(10);
                        } catch (InterruptedException ie) {
                            return;
                        }
                    }
                }
            });
            writer.start();
            RedisServer newMaster = sentinel.group().awaitNewMaster(oldMaster, Duration.ofSeconds(30));
            long promotedAt = System.nanoTime();
            writer.join(Duration.ofSeconds(30).toMillis());
            long writtenAt = System.nanoTime();
            assertThat(writer.isAlive()).as("a write succeeded").isFalse();

            Duration failoverTime = Duration.ofNanos(promotedAt - killedAt);
            Duration writeDelay = Duration.ofNanos(writtenAt - promotedAt);
            System.out.printf("[figures] sentinel failover: promoted %d ms after kill, first write on the new"
                    + " master %d ms after promotion (%d failed attempts meanwhile)%n",
                    failoverTime.toMillis(), writeDelay.toMillis(), failures.get());
            assertThat(newMaster.port()).isNotEqualTo(oldMaster.port());
            assertThat(newMaster.command("GET", key)).isEqualTo("after");
            assertThat(writeDelay).isLessThan(Duration.ofSeconds(2));
        }
    }
}
