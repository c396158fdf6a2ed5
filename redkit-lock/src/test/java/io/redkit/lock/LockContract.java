package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.ScriptOutputType;
import io.redkit.Idempotency;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lock.jdbc.FenceGuard;
import io.redkit.lock.jdbc.FencedWrite;
import io.redkit.testing.Deployment;
import io.redkit.testing.CommandLog;
import io.redkit.testing.PostgresExtension;

/**
 * DESIGN §3 as claims, pinned on every topology: the seeds' naive DEL is broken and the owner-checked release is
 * not; a paused holder's stale write is refused by the fence; the lease learns of loss in time; waiting is woken
 * by a release and never outlives its deadline; the wire format is the seeds'.
 */
abstract class LockContract {

    @RegisterExtension
    static final PostgresExtension pg = PostgresExtension.create();

    private final Deployment deployment;
    private final List<AutoCloseable> opened = new ArrayList<>();
    // Every client of this test sends its name, so a CommandLog counts what this test sent and nothing else.
    final String clientName = CommandLog.uniqueClientName("lock-test");

    LockContract(Deployment deployment) {
        this.deployment = deployment;
    }

    Redkit client() {
        return client(b -> { });
    }

    Redkit client(Consumer<RedkitConfig.Builder> customizer) {
        RedkitConfig.Builder builder = RedkitConfig.builder().url(deployment.url()).clientName(clientName);
        customizer.accept(builder);
        Redkit redkit = Redkit.create(builder.build());
        opened.add(redkit);
        return redkit;
    }

    Locks locks(Redkit redkit, Consumer<LockConfig.Builder> customizer) {
        LockConfig.Builder builder = LockConfig.builder();
        customizer.accept(builder);
        Locks locks = Locks.create(redkit, builder.build());
        opened.add(0, locks);
        return locks;
    }

    @AfterEach
    void closeAndHeal() throws Exception {
        deployment.healAll();
        for (AutoCloseable c : opened) {
            c.close();
        }
        opened.clear();
    }

    static String unique(String what) {
        return what + "-" + UUID.randomUUID();
    }

    private static String raw(Redkit redkit, String key) {
        return redkit.commands().getString(key).orElse(null);
    }

    @Test
    void naiveDelReleaseDeletesTheNextHoldersLock() {
        Redkit processA = client();
        Redkit processB = client();
        Locks locksB = locks(processB, b -> b.ttl(Duration.ofSeconds(10)));
        Lock lockB = locksB.lock(unique("report"));
        String key = lockB.key();

        // The seeds' last example: SET NX PX, do the work, DEL. A's work outlasts its TTL (3 s vs 5 s, scaled).
        assertThat(processA.commands().setIfAbsent(key, "A".getBytes(StandardCharsets.UTF_8),
                Duration.ofMillis(300))).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> processA.commands().exists(key) == 0);
        Lease b = lockB.tryAcquire().orElseThrow();
        processA.commands().delete(key); // A finishes and "releases" with a plain DEL

        assertThat(processB.commands().exists(key)).as("B's lock, deleted by A").isZero();
        Optional<Lease> c = locksB.lock(lockB.name()).tryAcquire();
        assertThat(c).as("a third holder gets in while B still works").isPresent();
        assertThat(b.release()).isEqualTo(ReleaseResult.LOST);
        assertThat(c.orElseThrow().release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void ownerCheckedReleaseRefusesAndReportsLost() {
        Redkit processA = client();
        Redkit processB = client();
        Lock lockA = locks(processA, b -> b.ttl(Duration.ofMillis(300)).watchdog(false)).lock(unique("report"));
        Lock lockB = locks(processB, b -> b.ttl(Duration.ofSeconds(10))).lock(lockA.name());

        Lease a = lockA.tryAcquire().orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(() -> processA.commands().exists(a.key()) == 0);
        Lease b = lockB.tryAcquire().orElseThrow();

        assertThat(a.release()).isEqualTo(ReleaseResult.LOST);
        assertThat(a.lost()).isCompletedWithValueMatching(e -> e.lockName().equals(lockA.name()));
        assertThatThrownBy(a::close).isInstanceOf(LockLostException.class).hasMessageContaining("UNKNOWN");
        assertThat(raw(processB, b.key())).as("B's lock is untouched").isEqualTo(b.ownerToken());
        assertThat(b.release()).isEqualTo(ReleaseResult.RELEASED);
        assertThat(processB.commands().exists(b.key())).isZero();
    }

    @Test
    void rawSetNxFromAnotherClientExcludesRedkit() {
        Redkit other = client();
        Lock lock = locks(client(), b -> { }).lock(unique("interop"));
        // What a Go or Node service using the seeds' scheme sends.
        assertThat(other.commands().setIfAbsent(lock.key(), "go-service-token".getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(10))).isTrue();

        assertThat(lock.tryAcquire()).isEmpty();
        assertThat(lock.tryAcquire(Duration.ofMillis(100))).isEmpty();
        assertThat(raw(other, lock.key())).isEqualTo("go-service-token");
    }

    @Test
    void lockNameWithColonsIsTheKeyAGoServiceWrites() {
        Redkit other = client();
        String name = "job:" + UUID.randomUUID() + ":42";
        String goKey = "lock:{" + name + "}";
        // The seeds' scheme, written by hand as a Go or Node service would, with no escaping of its own.
        assertThat(other.commands().setIfAbsent(goKey, "go-service-token".getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(10))).isTrue();
        Lock lock = locks(client(), b -> { }).lock(name);

        assertThat(lock.key()).isEqualTo(goKey);
        assertThat(lock.tryAcquire()).as("held by the raw SET NX PX contender").isEmpty();
        other.commands().delete(goKey);
        Lease lease = lock.tryAcquire().orElseThrow();
        assertThat(lease.key()).isEqualTo(goKey);
        assertThat(other.commands().setIfAbsent(goKey, "go-service-token".getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(10))).as("the Go service is kept out by redkit's lease").isFalse();
        assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void redkitLockIsReleasedOnlyByItsOwnersToken() {
        Redkit other = client();
        Lease lease = locks(client(), b -> { }).lock(unique("interop")).tryAcquire().orElseThrow();
        String compareAndDelete =
                "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

        assertThat(raw(other, lease.key())).as("the value is the plain owner token").isEqualTo(lease.ownerToken());
        assertThat(evalRaw(other, compareAndDelete, lease.key(), "someone-else")).isZero();
        assertThat(raw(other, lease.key())).isEqualTo(lease.ownerToken());
        assertThat(evalRaw(other, compareAndDelete, lease.key(), lease.ownerToken())).isEqualTo(1L);
        assertThat(other.commands().exists(lease.key())).isZero();
        assertThat(lease.release()).as("released by someone else's compare-and-delete").isEqualTo(ReleaseResult.LOST);
    }

    private static long evalRaw(Redkit redkit, String script, String key, String arg) {
        return redkit.commands().<Long>execute("EVAL", Idempotency.IDEMPOTENT, c -> c.eval(script,
                ScriptOutputType.INTEGER, new String[] {key}, arg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void pausedHolderCannotOverwriteNewerWrite() throws Exception {
        pg.execute("CREATE TABLE report_paused (id int PRIMARY KEY, body text, fence bigint NOT NULL)");
        pg.execute("INSERT INTO report_paused VALUES (1, 'initial', 0)");
        FenceGuard guard = FenceGuard.on("report_paused");
        Redkit redkit = client();
        Lock lock = locks(redkit, b -> b.ttl(Duration.ofMillis(200)).watchdog(false)).lock(unique("report"));

        Lease a = lock.tryAcquire().orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(a.key()) == 0); // A is paused
        Lease b = lock.tryAcquire().orElseThrow();
        FencedWrite bWrite = guard.update(pg.dataSource(), 1, b.fencingToken(), Map.of("body", "by B"));
        FencedWrite aWrite = guard.update(pg.dataSource(), 1, a.fencingToken(), Map.of("body", "by A, stale"));

        assertThat(b.fencingToken()).isGreaterThan(a.fencingToken());
        assertThat(bWrite.status()).isEqualTo(FencedWrite.Status.APPLIED);
        assertThat(aWrite.status()).isEqualTo(FencedWrite.Status.STALE);
        assertThat(aWrite.currentFence()).hasValue(b.fencingToken());
        assertThat(pg.queryLong("SELECT fence FROM report_paused WHERE id = 1")).isEqualTo(b.fencingToken());
        try (Connection c = pg.connection(); var st = c.createStatement();
                var rs = st.executeQuery("SELECT body FROM report_paused WHERE id = 1")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("by B");
        }
        assertThat(a.release()).isEqualTo(ReleaseResult.LOST);
        assertThat(b.release()).isEqualTo(ReleaseResult.RELEASED);
    }

    /**
     * The safety claim under load: eight workers, pauses longer than the TTL inside the critical section, at least
     * 2,000 acquisitions. The unguarded resource records holders that overlapped and stale writes it took; the
     * fenced one refuses every stale write (its own history shows no fence going backwards).
     */
    @Test
    void fencedResourceAcceptsNoStaleWriteWhileTheUnguardedOneSeesOverlappingHolders() throws Exception {
        Duration ttl = Duration.ofMillis(100);
        // A batch job's client: on a loaded 2-core machine a 300 ms request timeout would fail a worker now and then.
        Lock lock = locks(client(c -> c.commandTimeout(Duration.ofSeconds(2))), b -> b.ttl(ttl).watchdog(false)
                .backoff(Duration.ofMillis(1), Duration.ofMillis(20))).lock(unique("safety"));

        SafetyRun.Counts n = new SafetyRun(pg, lock, ttl).run(8, 2_000);

        System.out.printf("[figures] %s safety: %d acquisitions by 8 workers in %d ms, %d pauses > ttl %d ms;"
                + " fenced: %d applied, %d stale refused, %d stale accepted; unguarded: %d overlapping holders,"
                + " %d stale writes accepted; %d releases LOST; %d Redis timeouts%n", getClass().getSimpleName(),
                n.acquisitions(), n.millis(), n.pauses(), ttl.toMillis(), n.applied(), n.refused(),
                n.guardedStaleAccepted(), n.overlaps(), n.unguardedStale(), n.releasesLost(), n.timeouts());
        assertThat(n.acquisitions()).isGreaterThanOrEqualTo(2_000);
        assertThat(n.overlaps()).as("overlapping holders seen by the unguarded resource").isPositive();
        assertThat(n.unguardedStale()).as("stale writes the unguarded resource took").isPositive();
        assertThat(n.refused()).as("stale writes the fence refused").isPositive();
        assertThat(n.guardedStaleAccepted()).as("stale writes the fence accepted").isZero();
        assertThat(n.guardedUpdates()).isEqualTo(n.applied());
        assertThat(n.applied() + n.refused()).isEqualTo(n.acquisitions());
        assertThat(n.releasesLost()).as("paused holders learn at release that they lost the lock").isPositive();
    }

    @Test
    void pausedServerLossIsSignalledNoLaterThanTheTtl() throws Exception {
        Duration ttl = Duration.ofSeconds(1);
        // A drift allowance that covers a loaded 2-core CI machine's scheduling jitter.
        Lock lock = locks(client(), b -> b.ttl(ttl).clockDrift(Duration.ofMillis(100))).lock(unique("paused"));
        AtomicLong lostAt = new AtomicLong();
        long before = System.nanoTime();
        Lease lease = lock.tryAcquire().orElseThrow();
        lease.onLost(e -> lostAt.set(System.nanoTime()));

        deployment.pauseServerOf(lease.key());
        LockLostException loss = lease.lost().get(10, TimeUnit.SECONDS);
        deployment.healAll();

        Duration signalled = Duration.ofNanos(lostAt.get() - before);
        System.out.printf("[figures] %s server paused: loss (%s) signalled %d ms after acquiring (ttl %d ms)%n",
                getClass().getSimpleName(), loss.reason(), signalled.toMillis(), ttl.toMillis());
        assertThat(loss.reason()).isIn(LossReason.EXTENSION_FAILED, LossReason.VALIDITY_EXPIRED);
        assertThat(signalled).isLessThanOrEqualTo(ttl);
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.remaining()).isZero();
        assertThatThrownBy(lease::ensureHeld).isInstanceOf(LockLostException.class);
    }

    @Test
    void runLockedInterruptsTheWorkWhenTheLockIsLost() {
        Redkit redkit = client();
        Lock lock = locks(redkit, b -> b.ttl(Duration.ofMillis(300))).lock(unique("job"));
        AtomicReference<Lease> seen = new AtomicReference<>();
        AtomicReference<Throwable> workSaw = new AtomicReference<>();
        long start = System.nanoTime();

        assertThatThrownBy(() -> lock.runLocked(Duration.ZERO, lease -> {
            seen.set(lease);
            redkit.commands().delete(lease.key()); // an operator's DEL: the watchdog's next extension is refused
            try {
                Thread.sleep(10_000); // work that would run far past the lease
            } catch (InterruptedException e) {
                workSaw.set(e);
                throw e;
            }
            return "finished";
        })).isInstanceOfSatisfying(LockLostException.class,
                e -> assertThat(e.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));

        assertThat(workSaw.get()).isInstanceOf(InterruptedException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(Thread.currentThread().isInterrupted()).as("runLocked does not leak its interrupt").isFalse();
        assertThat(seen.get().isValid()).isFalse();
    }

    @Test
    void runLockedReturnsTheResultAndReleases() throws Exception {
        Redkit redkit = client();
        Lock lock = locks(redkit, b -> { }).lock(unique("job"));
        String result = lock.runLocked(Duration.ofSeconds(1), lease -> {
            lease.ensureHeld();
            return "done with " + lease.fencingToken();
        });
        assertThat(result).startsWith("done with ");
        assertThat(redkit.commands().exists(lock.key())).isZero();
    }

    @Test
    void waiterIsWokenByTheReleaseNotByItsBackoff() throws Exception {
        // The backoff, and the holder's TTL that caps a pause, outlast the test: only the pub/sub wake-up can hand
        // the lock over at all. (A 4 s backoff and a bound of 2 s on the handover made a loaded machine's slow
        // handover look like a missing wake-up.)
        Redkit redkit = client();
        Duration never = Duration.ofHours(1);
        Lock lock = locks(redkit, b -> b.ttl(never).maxWait(never).backoff(never, never)).lock(unique("handover"));
        Lease first = lock.tryAcquire().orElseThrow();
        CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
            Lease second = lock.tryAcquire(Duration.ofMinutes(30)).orElseThrow();
            long at = System.nanoTime();
            second.release();
            return at;
        });
        // Let the waiter make its first attempt and go to sleep; whether it has is visible as its marker key.
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(first.key() + ":waiting") == 1);

        long releasedAt = System.nanoTime();
        assertThat(first.release()).isEqualTo(ReleaseResult.RELEASED);
        Duration handover = Duration.ofNanos(acquiredAt.get(60, TimeUnit.SECONDS) - releasedAt);
        System.out.printf("[figures] %s waiter acquired %d ms after the release (backoff one hour)%n",
                getClass().getSimpleName(), handover.toMillis());
    }

    @Test
    void tryAcquireNeverWaitsPastTheDeadline() {
        Lock lock = locks(client(), b -> b.ttl(Duration.ofSeconds(30))
                .backoff(Duration.ofSeconds(4), Duration.ofSeconds(4))).lock(unique("deadline"));
        Lease held = lock.tryAcquire().orElseThrow();
        long start = System.nanoTime();
        assertThat(lock.tryAcquire(Duration.ofMillis(300))).isEmpty();
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(Duration.ofSeconds(2));
        assertThat(held.release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void fencingTokensIncreaseAndHelperKeysExpire() throws Exception {
        Redkit redkit = client();
        Lock lock = locks(redkit, b -> b.ttl(Duration.ofSeconds(5))).lock(unique("fence"));
        long previous = 0;
        for (int i = 0; i < 5; i++) {
            Lease lease = lock.tryAcquire().orElseThrow();
            assertThat(lease.fencingToken()).isGreaterThan(previous);
            previous = lease.fencingToken();
            assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
        }
        Lease held = lock.tryAcquire().orElseThrow();
        CompletableFuture<ReleaseResult> waiter = CompletableFuture.supplyAsync(
                () -> lock.tryAcquire(Duration.ofSeconds(2)).orElseThrow().release());
        String waiting = held.key() + ":waiting";
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(waiting) == 1);

        assertThat(redkit.commands().ttl(held.key() + ":fence")).hasValueSatisfying(t ->
                assertThat(t).isPositive().isLessThanOrEqualTo(LockConfig.DEFAULT_FENCE_RETENTION));
        assertThat(redkit.commands().ttl(waiting)).as("the waiters marker lives no longer than the wait")
                .hasValueSatisfying(t -> assertThat(t).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(2)));
        assertThat(redkit.commands().ttl(held.key())).hasValueSatisfying(t ->
                assertThat(t).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(5)));
        assertThat(held.release()).isEqualTo(ReleaseResult.RELEASED);
        assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo(ReleaseResult.RELEASED);
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(waiting) == 0);
    }

    @Test
    void unfencedLockHasNoTokenAndNoCounter() {
        Redkit redkit = client();
        Lease lease = locks(redkit, b -> b.fencing(Fencing.none())).lock(unique("plain")).tryAcquire().orElseThrow();
        assertThat(lease.isFenced()).isFalse();
        assertThatThrownBy(lease::fencingToken).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not fenced");
        assertThat(redkit.commands().exists(lease.key() + ":fence")).isZero();
        assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void leaseIsOwnedByTheObjectNotTheThread() throws Exception {
        Redkit redkit = client();
        Lock lock = locks(redkit, b -> { }).lock(unique("handoff"));
        ExecutorService acquirer = Executors.newSingleThreadExecutor();
        ExecutorService releaser = Executors.newSingleThreadExecutor();
        try {
            ReleaseResult result = CompletableFuture.supplyAsync(() -> lock.tryAcquire().orElseThrow(), acquirer)
                    .thenApplyAsync(lease -> {
                        lease.ensureHeld();
                        return lease.release();
                    }, releaser)
                    .get(10, TimeUnit.SECONDS);
            assertThat(result).isEqualTo(ReleaseResult.RELEASED);
        } finally {
            acquirer.shutdownNow();
            releaser.shutdownNow();
        }
        assertThat(redkit.commands().exists(lock.key())).isZero();
    }

    @Test
    void badInputIsRefusedWithClearErrors() {
        Locks locks = locks(client(), b -> b.ttl(Duration.ofSeconds(1)).maxWait(Duration.ofSeconds(10)));
        assertThatThrownBy(() -> locks.lock("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lock name");
        assertThatThrownBy(() -> locks.lock("   ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lock name");
        assertThatThrownBy(() -> locks.lock(null)).isInstanceOf(IllegalArgumentException.class);
        Lock lock = locks.lock(unique("input"));
        assertThatThrownBy(() -> lock.tryAcquire(Duration.ofSeconds(11))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT11S").hasMessageContaining("maxWait");
        assertThatThrownBy(() -> lock.tryAcquire(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> lock.runLocked(Duration.ofMinutes(1), l -> 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxWait");
    }

    @Test
    void busyIsAResultAndAcquireReportsItAfterTheWait() {
        Lock lock = locks(client(), b -> b.maxWait(Duration.ofMillis(200))).lock(unique("busy"));
        Lease held = lock.tryAcquire().orElseThrow();
        assertThat(lock.tryAcquire()).isEmpty();
        assertThatThrownBy(lock::acquire).isInstanceOf(LockBusyException.class).hasMessageContaining("200 ms");
        held.release();
        assertThat(lock.acquire().release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void validityComesFromTheInjectedMonotonicClock() {
        ManualClock clock = new ManualClock();
        Lock lock = locks(client(c -> c.clock(clock)), b -> b.ttl(Duration.ofSeconds(10)).watchdog(false)
                .clockDrift(Duration.ofMillis(100))).lock(unique("clock"));
        Lease lease = lock.tryAcquire().orElseThrow();
        assertThat(lease.remaining()).isEqualTo(Duration.ofMillis(9_900));

        clock.advance(Duration.ofMillis(9_899));
        assertThat(lease.isValid()).isTrue();
        lease.ensureHeld();

        clock.advance(Duration.ofMillis(1));
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.remaining()).isZero();
        assertThatThrownBy(lease::ensureHeld).isInstanceOfSatisfying(LockLostException.class,
                e -> assertThat(e.reason()).isEqualTo(LossReason.VALIDITY_EXPIRED));
        // Redis still holds our token (its TTL is 10 s of real time): nobody else can have held it.
        assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void metersCountAcquiredBusyLostReleasedLateAndHoldTime() {
        Redkit redkit = client();
        String namespace = "lockm" + ThreadLocalRandom.current().nextInt(1_000_000);
        Lock lock = locks(redkit, b -> b.namespace(namespace).ttl(Duration.ofMillis(200)).watchdog(false))
                .lock(unique("metered"));
        Lease first = lock.tryAcquire().orElseThrow();
        assertThat(lock.tryAcquire()).isEmpty();
        await().atMost(Duration.ofSeconds(5)).until(() -> first.lost().isDone());
        assertThat(first.release()).isEqualTo(ReleaseResult.LOST);
        lock.tryAcquire().orElseThrow().release();

        var meters = redkit.meters();
        assertThat(meters.get("redkit.lock.acquired").tag("namespace", namespace).counter().count()).isEqualTo(2);
        assertThat(meters.get("redkit.lock.busy").tag("namespace", namespace).counter().count()).isEqualTo(1);
        assertThat(meters.get("redkit.lock.lost").tag("namespace", namespace).tag("reason", "VALIDITY_EXPIRED")
                .counter().count()).isEqualTo(1);
        assertThat(meters.get("redkit.lock.released.late").tag("namespace", namespace).counter().count())
                .isEqualTo(1);
        assertThat(meters.get("redkit.lock.hold").tag("namespace", namespace).timer().count()).isEqualTo(2);
    }

    @Test
    void anEarlyReleaseOfABoundedLeaseKeepsTheKeyUntilAtLeastHasPassed() {
        ManualClock clock = new ManualClock();
        Redkit redkit = client(c -> c.clock(clock));
        Lock lock = locks(redkit, b -> { }).lock(unique("tick"));
        Lease lease = lock.tryAcquire(LeaseBounds.of(Duration.ofSeconds(10), Duration.ofSeconds(1))).orElseThrow();
        clock.advance(Duration.ofMillis(400));

        assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);

        // Still ours, shortened to what is left of the second, so a scheduler firing late finds the tick taken.
        assertThat(raw(redkit, lock.key())).isEqualTo(lease.ownerToken());
        assertThat(redkit.commands().ttl(lock.key())).get().matches(t -> t.compareTo(Duration.ofMillis(600)) <= 0,
                "what is left of the second after the acquisition");
        assertThat(lock.tryAcquire()).as("another instance, just after the release").isEmpty();
        assertThat(lease.isValid()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(lock.key()) == 0);
        lock.tryAcquire().orElseThrow().release();
    }

    @Test
    void aReleaseAfterAtLeastHasPassedDeletesTheKey() {
        ManualClock clock = new ManualClock();
        Redkit redkit = client(c -> c.clock(clock));
        Lock lock = locks(redkit, b -> { }).lock(unique("tick"));
        Lease lease = lock.tryAcquire(LeaseBounds.of(Duration.ofSeconds(10), Duration.ofSeconds(1))).orElseThrow();
        clock.advance(Duration.ofMillis(1500));

        assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);

        assertThat(redkit.commands().exists(lock.key())).isZero();
    }

    @Test
    void theWatchdogDoesNotExtendABoundedLeasePastAtMost() {
        Redkit redkit = client();
        Lock lock = locks(redkit, b -> b.ttl(Duration.ofMillis(300))).lock(unique("bounded"));
        Lease lease = lock.tryAcquire(LeaseBounds.atMost(Duration.ofMillis(600))).orElseThrow();

        // Never released: the key expires by its bound although a watchdog extends this Locks' other leases every
        // 100 ms, and the holder hears of it.
        await().atMost(Duration.ofSeconds(5)).until(() -> redkit.commands().exists(lock.key()) == 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> lease.lost().isDone());
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.release()).isEqualTo(ReleaseResult.LOST);
    }

    @Test
    void onlyTheHolderExtendsABoundedLease() {
        // A's clock stands still: a paused holder that still believes in its lease when the key has gone to B.
        ManualClock pausedClock = new ManualClock();
        Redkit processA = client(c -> c.clock(pausedClock));
        Redkit processB = client();
        Lock lockA = locks(processA, b -> { }).lock(unique("job"));
        Lock lockB = locks(processB, b -> { }).lock(lockA.name());
        Lease a = lockA.tryAcquire(LeaseBounds.atMost(Duration.ofMillis(300))).orElseThrow();

        assertThat(a.extend(LeaseBounds.atMost(Duration.ofSeconds(20)))).isTrue();
        assertThat(processA.commands().ttl(a.key())).get()
                .matches(t -> t.compareTo(Duration.ofSeconds(10)) > 0, "pushed towards the new bound");
        assertThat(lockB.tryAcquire(LeaseBounds.atMost(Duration.ofSeconds(1)))).isEmpty();
        assertThat(a.extend(LeaseBounds.atMost(Duration.ofMillis(300)))).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> processA.commands().exists(a.key()) == 0);
        Lease b = lockB.tryAcquire(LeaseBounds.atMost(Duration.ofSeconds(20))).orElseThrow();

        assertThat(a.isValid()).as("A's own clock").isTrue();

        assertThat(a.extend(LeaseBounds.atMost(Duration.ofSeconds(20)))).as("the key is B's").isFalse();
        assertThat(a.isValid()).isFalse();
        assertThat(raw(processB, b.key())).isEqualTo(b.ownerToken());
        assertThat(processB.commands().ttl(b.key())).get()
                .matches(t -> t.compareTo(Duration.ofSeconds(20)) <= 0, "B's own bound, not A's extension");
        assertThat(b.release()).isEqualTo(ReleaseResult.RELEASED);
        assertThatThrownBy(() -> lockA.tryAcquire().orElseThrow().extend(LeaseBounds.atMost(Duration.ofSeconds(1))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("without LeaseBounds");
    }
}
