package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Redkit;
import io.redkit.testing.CommandLog;
import io.redkit.testing.DeploymentExtension;
import io.redkit.testing.RedisServer;

/** {@link LockContract} on one real redis-server, plus the long watchdog run. */
class StandaloneLockIT extends LockContract {

    @RegisterExtension
    static final DeploymentExtension<RedisServer> redis = DeploymentExtension.standalone();

    StandaloneLockIT() {
        super(redis);
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

    @Test
    void aReleaseWakesOneLocalWaiterNotTheWholeHerd() throws Exception {
        Redkit redkit = client();
        // Only a release may wake a waiter here: the backoff and the holder's TTL (which caps a pause) outlast the
        // test. With a 3 s backoff, whose first pause is exactly 3 s for every waiter, the test waited for one call
        // more than the 50 first attempts (the holder's acquire came before the log started), that is for the
        // first waiter's own backoff to end, and then released into the herd waking on its own: CI counted 15
        // calls, a run beside busy loops 33.
        Duration never = Duration.ofHours(1);
        Locks locks = locks(redkit, b -> b.ttl(never).maxWait(never).backoff(never, never));
        Lock lock = locks.lock(unique("herd"));
        Lease holder = lock.acquire();
        int waiters = 50;
        CountDownLatch finish = new CountDownLatch(1);
        AtomicInteger acquired = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(waiters);
        List<Future<?>> futures = new ArrayList<>();
        try (CommandLog log = CommandLog.start(List.of(redis.get()))) {
            for (int i = 0; i < waiters; i++) {
                futures.add(pool.submit(() -> {
                    try (Lease lease = lock.tryAcquire(Duration.ofMinutes(30)).orElseThrow()) {
                        acquired.incrementAndGet();
                        finish.await();
                    }
                    return null;
                }));
            }
            // Every waiter has made its first attempt and waits for a release signal.
            await().atMost(Duration.ofSeconds(10)).until(() -> scriptCalls(log) >= waiters);
            long before = scriptCalls(log);

            holder.release();
            await().atMost(Duration.ofSeconds(2)).until(() -> acquired.get() == 1);
            long calls = scriptCalls(log) - before;
            System.out.printf("[figures] StandaloneLockIT one release with %d local waiters: %d script calls%n",
                    waiters, calls);
            // The release itself and the one woken waiter's acquire, not one acquire per waiter.
            assertThat(calls).isEqualTo(2);

            finish.countDown(); // each holder releases in turn and wakes the next, and only the next
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertThat(acquired).hasValue(waiters);
            // One acquire and one release per waiter, plus the first holder's release: no waiter tried in vain.
            assertThat(scriptCalls(log) - before).isEqualTo(2L * waiters + 1);
        } finally {
            finish.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void replicaAcksCostNothingOnAStandaloneServerUnlessACountIsAsked() {
        Redkit redkit = client();
        // AUTO, the default: a standalone server's replicas are not known, so none must confirm.
        Lock lock = locks(redkit, b -> { }).lock(unique("standalone"));
        Lock counted = locks(redkit, b -> b.replicaAcks(ReplicaAcks.of(1))
                .replicaAckTimeout(Duration.ofMillis(50))).lock(unique("counted"));
        try (CommandLog log = CommandLog.start(List.of(redis.get()))) {
            for (int i = 0; i < 5; i++) {
                lock.tryAcquire().orElseThrow().close();
            }
            assertThat(log.callsOf(clientName, "wait")).isZero();
            // Only the shared connection: no dedicated one was taken.
            assertThat(redis.get().clientsNamed(clientName)).hasSize(1);

            // A count is waited for even here: this server has no replica, so it is never confirmed.
            assertThatThrownBy(counted::tryAcquire)
                    .isInstanceOf(LockNotReplicatedException.class).hasMessageContaining("0 of 1");
            assertThat(log.callsOf(clientName, "wait")).isEqualTo(1);
            assertThat(redkit.commands().exists(counted.key())).isZero();
        }
    }

    private long scriptCalls(CommandLog log) {
        return log.callsOf(clientName, "evalsha") + log.callsOf(clientName, "eval");
    }
}
