package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.Outcome;
import io.redkit.RedisCommandException;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.RedkitException;
import io.redkit.testing.RedisServerExtension;

/**
 * A holder must never believe it holds a lock that it does not: the lease's state under races, stalled servers,
 * dropped connections, corrupt counters and slow callbacks. Each test is named after the promise it pins.
 */
class LeaseUnderFaultsIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        redis.resume();
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private Redkit client(Consumer<RedkitConfig.Builder> settings) {
        RedkitConfig.Builder builder = RedkitConfig.builder().url(redis.url());
        settings.accept(builder);
        Redkit redkit = Redkit.create(builder.build());
        opened.add(redkit);
        return redkit;
    }

    private Locks locks(Redkit redkit, Consumer<LockConfig.Builder> settings) {
        LockConfig.Builder builder = LockConfig.builder();
        settings.accept(builder);
        Locks locks = Locks.create(redkit, builder.build());
        opened.add(0, locks);
        return locks;
    }

    private static String unique(String what) {
        return what + "-" + UUID.randomUUID();
    }

    @Test
    void ensureHeldNeverReturnsOnceTheLeaseIsSeenLost() {
        Redkit redkit = client(c -> { });
        Lock lock = locks(redkit, b -> b.ttl(LockConfig.MIN_WATCHDOG_TTL)).lock(unique("race"));
        int returnedNormally = 0;
        for (int trial = 0; trial < 200; trial++) {
            Lease lease = lock.tryAcquire().orElseThrow();
            redkit.commands().delete(lease.key()); // an operator's DEL: the next extension is refused
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (lease.isValid() && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // racing the watchdog's loss signal on purpose
            }
            assertThat(lease.isValid()).isFalse();
            try {
                lease.ensureHeld();
                returnedNormally++;
            } catch (LockLostException expected) {
                assertThat(expected.reason()).isIn(LossReason.EXTENSION_REFUSED, LossReason.VALIDITY_EXPIRED,
                        LossReason.EXTENSION_FAILED);
            }
        }
        assertThat(returnedNormally).as("ensureHeld() that returned after isValid() was false").isZero();
    }

    @Test
    void leaseAcquiredSlowlyIsNeverValidAgainOnceItWasNot() throws Exception {
        Redkit redkit = client(c -> c.commandTimeout(Duration.ofSeconds(2)));
        Lock lock = locks(redkit, b -> b.ttl(LockConfig.MIN_WATCHDOG_TTL)).lock(unique("slow"));
        ScheduledExecutorService faults = Executors.newSingleThreadScheduledExecutor();
        try {
            redis.pause();
            // The acquire is answered 240 ms after it was sent: past a third of the TTL, inside the validity.
            faults.schedule(redis::resume, 240, TimeUnit.MILLISECONDS);
            Lease lease = lock.tryAcquire().orElseThrow();
            boolean seenInvalid = false;
            int revivals = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (System.nanoTime() < end) {
                boolean valid = lease.isValid();
                if (!valid) {
                    seenInvalid = true;
                } else if (seenInvalid) {
                    revivals++;
                }
            }
            assertThat(revivals).as("checks that found the lease valid again after it was not").isZero();
            if (seenInvalid) {
                assertThat(lease.lost().get(5, TimeUnit.SECONDS)).isNotNull();
            }
            lease.release();
        } finally {
            faults.shutdownNow();
        }
    }

    @Test
    void releaseThatTimesOutLeavesTheLeaseLostForEveryCheck() throws Exception {
        Redkit redkit = client(c -> { });
        Lease lease = locks(redkit, b -> b.ttl(Duration.ofSeconds(5))).lock(unique("stalled")).tryAcquire()
                .orElseThrow();
        redis.pause();
        assertThatThrownBy(lease::release).isInstanceOfSatisfying(RedkitException.class,
                e -> assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN));

        assertThat(lease.isValid()).isFalse();
        assertThat(lease.remaining()).isZero();
        assertThatThrownBy(lease::ensureHeld).isInstanceOfSatisfying(LockLostException.class,
                e -> assertThat(e.reason()).isEqualTo(LossReason.RELEASE_FAILED));
        assertThat(lease.lost().get(5, TimeUnit.SECONDS).reason()).isEqualTo(LossReason.RELEASE_FAILED);
        redis.resume();
        // The timed-out release was on the wire and ran once the server woke: a second one finds the key gone.
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(lease.key()) == 0);
        assertThat(lease.release()).isEqualTo(ReleaseResult.LOST);
    }

    @Test
    void releaseInterruptedByADroppedConnectionIsNotRetriedAndReportsUnknown() {
        Redkit redkit = client(c -> c.commandTimeout(Duration.ofSeconds(5)));
        Lease lease = locks(redkit, b -> b.ttl(Duration.ofSeconds(30))).lock(unique("dropped")).tryAcquire()
                .orElseThrow();
        long clientId = redkit.commands().execute("CLIENT ID", io.redkit.Idempotency.IDEMPOTENT, c -> c.clientId());
        redis.command("CLIENT", "PAUSE", "3000", "WRITE");
        CompletableFuture<ReleaseResult> release = CompletableFuture.supplyAsync(lease::release);
        await().atMost(Duration.ofSeconds(2)).until(() ->
                String.valueOf(redis.command("CLIENT", "LIST")).contains("cmd=evalsha"));
        redis.command("CLIENT", "KILL", "ID", Long.toString(clientId));
        redis.command("CLIENT", "UNPAUSE");

        // Sent again after a first run that may have deleted the key, it would answer 0 and call a clean release LOST.
        assertThat(release).failsWithin(Duration.ofSeconds(5)).withThrowableThat().havingCause()
                .isInstanceOfSatisfying(RedkitException.class, e -> assertThat(e.outcome())
                        .isEqualTo(Outcome.UNKNOWN));
        assertThat(redkit.meters().find("redkit.command.retries").counters()).allSatisfy(c ->
                assertThat(c.count()).isZero());
        assertThat(lease.isValid()).isFalse();
    }

    @Test
    void corruptFenceCounterFailsTheAcquireAndLeavesNothingBehind() {
        Redkit redkit = client(c -> { });
        Lock lock = locks(redkit, b -> b.ttl(Duration.ofSeconds(30))).lock(unique("fence"));
        String fence = lock.key() + ":fence";
        redkit.commands().setString(fence, "abc", Duration.ofMinutes(5));

        for (int attempt = 0; attempt < 3; attempt++) {
            assertThatThrownBy(lock::tryAcquire).isInstanceOfSatisfying(RedisCommandException.class,
                    e -> assertThat(e.errorCode()).isEqualTo("CORRUPTFENCE"));
            assertThat(redkit.commands().exists(lock.key())).as("no orphan lock after attempt " + attempt).isZero();
        }
        assertThat(redkit.commands().getString(fence)).as("the counter is left for a human to repair").contains("abc");

        redkit.commands().delete(fence);
        redkit.commands().hset(fence, Map.of("not", "a counter".getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(lock::tryAcquire).isInstanceOfSatisfying(RedisCommandException.class,
                e -> assertThat(e.errorCode()).isEqualTo("WRONGTYPE"));
        assertThat(redkit.commands().exists(lock.key())).isZero();

        redkit.commands().delete(fence);
        Lease lease = lock.tryAcquire().orElseThrow();
        assertThat(lease.fencingToken()).isPositive();
        assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void externalTokensFollowAcquisitionOrderWhenAHolderStallsBetweenItsSetAndItsDraw() throws Exception {
        AtomicLong sequence = new AtomicLong();
        CountDownLatch firstDrew = new CountDownLatch(1);
        CountDownLatch resumeFirst = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        FencingTokenSource stallingSource = lockName -> {
            long token = sequence.incrementAndGet();
            if (calls.incrementAndGet() == 1) {
                firstDrew.countDown();
                await().atMost(Duration.ofSeconds(30)).until(() -> resumeFirst.getCount() == 0); // stalled holder
            }
            return token;
        };
        Redkit redkit = client(c -> { });
        Locks locks = locks(redkit, b -> b.ttl(Duration.ofMillis(300)).watchdog(false)
                .fencing(Fencing.external(stallingSource)));
        String name = unique("ordered");

        CompletableFuture<java.util.Optional<Lease>> stalled = CompletableFuture.supplyAsync(
                () -> locks.lock(name).tryAcquire());
        assertThat(firstDrew.await(5, TimeUnit.SECONDS)).isTrue();
        Lease second = locks.lock(name).tryAcquire(Duration.ofSeconds(5)).orElseThrow();
        long secondToken = second.fencingToken();
        assertThat(second.release()).isEqualTo(ReleaseResult.RELEASED);
        resumeFirst.countDown();

        java.util.Optional<Lease> first = stalled.get(5, TimeUnit.SECONDS);
        // The stalled holder drew 1 before the second holder drew 2; holding now with 1 would put a lower token
        // after a higher one, and the second holder's late writes would win inside its tenure.
        assertThat(first).as("a holder whose lock expired before its token was confirmed").isEmpty();
        assertThat(secondToken).isEqualTo(2);
        Lease third = locks.lock(name).tryAcquire().orElseThrow();
        assertThat(third.fencingToken()).isGreaterThan(secondToken);
        third.release();
    }

    @Test
    void slowLossCallbackDelaysNoOtherLeasesExtension() {
        Redkit redkit = client(c -> { });
        Locks locks = locks(redkit, b -> b.ttl(Duration.ofSeconds(1)));
        Lease doomed = locks.lock(unique("doomed")).tryAcquire().orElseThrow();
        Lease kept = locks.lock(unique("kept")).tryAcquire().orElseThrow();
        AtomicReference<String> callbackThread = new AtomicReference<>();
        AtomicReference<String> dependentThread = new AtomicReference<>();
        doomed.onLost(e -> {
            callbackThread.set(Thread.currentThread().getName());
            try {
                Thread.sleep(5_000); // slow user code under test, not a wait for a condition
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });
        doomed.lost().thenRun(() -> dependentThread.set(Thread.currentThread().getName()));
        redkit.commands().delete(doomed.key());
        await().atMost(Duration.ofSeconds(3)).until(() -> callbackThread.get() != null);

        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(kept::isValid);
        assertThat(redkit.commands().getString(kept.key())).contains(kept.ownerToken());
        kept.ensureHeld();
        assertThat(callbackThread.get()).doesNotStartWith("redkit-lock-watchdog");
        assertThat(dependentThread.get()).isNotNull().doesNotStartWith("redkit-lock-watchdog");
        assertThat(kept.release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void lossFoundByEnsureHeldRunsCallbacksOffTheCallersThread() throws Exception {
        ManualClock manual = new ManualClock();
        Redkit redkit = client(c -> c.clock(manual));
        Lease lease = locks(redkit, b -> b.ttl(Duration.ofSeconds(10)).watchdog(false)).lock(unique("manual"))
                .tryAcquire().orElseThrow();
        CompletableFuture<String> callbackThread = new CompletableFuture<>();
        lease.onLost(e -> callbackThread.complete(Thread.currentThread().getName()));

        manual.advance(Duration.ofSeconds(11));
        assertThatThrownBy(lease::ensureHeld).isInstanceOf(LockLostException.class);
        assertThat(callbackThread.get(5, TimeUnit.SECONDS)).isNotEqualTo(Thread.currentThread().getName());
        assertThat(lease.release()).as("Redis still holds our token: nobody else can have held it")
                .isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void leasesAtTheMinimumTtlAreKeptByTheWatchdog() {
        Redkit redkit = client(c -> { });
        Locks locks = locks(redkit, b -> b.ttl(LockConfig.MIN_WATCHDOG_TTL));
        List<Lease> leases = new ArrayList<>();
        List<LossReason> losses = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int i = 0; i < 5; i++) {
            leases.add(locks.lock(unique("min")).tryAcquire().orElseThrow().onLost(e -> losses.add(e.reason())));
        }
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .failFast("a lease was lost: " + losses, () -> !losses.isEmpty())
                .until(() -> leases.stream().allMatch(Lease::isValid));
        for (Lease lease : leases) {
            assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
        }
    }

    @Test
    void ensureHeldAfterReleaseSaysTheLeaseWasReleased() {
        Lease lease = locks(client(c -> { }), b -> { }).lock(unique("done")).tryAcquire().orElseThrow();
        assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
        assertThat(lease.lost()).isCancelled();
        assertThatThrownBy(lease::ensureHeld).isInstanceOfSatisfying(LockLostException.class, e -> {
            assertThat(e.reason()).isEqualTo(LossReason.RELEASED);
            assertThat(e.outcome()).isEqualTo(Outcome.NOT_EXECUTED);
            assertThat(e.getMessage()).contains("released by this holder");
        });
    }
}
