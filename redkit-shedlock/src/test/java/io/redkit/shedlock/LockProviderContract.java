package io.redkit.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.lock.LockConfig;
import io.redkit.lock.Locks;
import io.redkit.testing.Deployment;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * ShedLock's provider contract ({@code AbstractLockProviderIntegrationTest} and
 * {@code AbstractExtensibleLockProviderIntegrationTest} of shedlock-test-support, which is not published to Maven
 * Central) on a real deployment, with its sleeps turned into waits on the key and its 2 ms and 50 ms bounds raised to
 * redkit's 100 ms minimum. Two providers on two clients stand for two instances.
 */
abstract class LockProviderContract {

    private final Deployment deployment;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final String name = "job-" + UUID.randomUUID();
    private Redkit redkit;
    private RedkitLockProvider instanceA;
    private RedkitLockProvider instanceB;

    LockProviderContract(Deployment deployment) {
        this.deployment = deployment;
    }

    @BeforeEach
    void twoInstances() {
        redkit = client();
        // A watchdog that would extend every 100 ms: a ShedLock lock must still expire by its lockAtMostFor.
        instanceA = new RedkitLockProvider(locks(redkit));
        instanceB = new RedkitLockProvider(locks(client()));
    }

    private Redkit client() {
        Redkit client = Redkit.create(RedkitConfig.builder().url(deployment.url()).build());
        opened.add(client);
        return client;
    }

    private Locks locks(Redkit client) {
        Locks locks = Locks.create(client, LockConfig.builder().ttl(Duration.ofMillis(300)).build());
        opened.add(0, locks);
        return locks;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
        return new LockConfiguration(ClockProvider.now(), name, atMost, atLeast);
    }

    private LockConfiguration config(Duration atMost, Duration atLeast) {
        return config(name, atMost, atLeast);
    }

    private LockConfiguration fiveMinutes() {
        return config(Duration.ofMinutes(5), Duration.ZERO);
    }

    private String key(String lockName) {
        return "lock:{" + lockName + "}";
    }

    private boolean locked(String lockName) {
        return redkit.commands().exists(key(lockName)) == 1;
    }

    private SimpleLock lockA(Duration atMost) {
        Optional<SimpleLock> lock = instanceA.lock(config(atMost, Duration.ZERO));
        assertThat(lock).isNotEmpty();
        assertThat(locked(name)).isTrue();
        return lock.get();
    }

    private void awaitUnlocked() {
        await().atMost(Duration.ofSeconds(10)).until(() -> !locked(name));
    }

    @Test
    void aLockIsTheKeyAGoServiceWouldWriteAndUnlockDeletesIt() {
        SimpleLock lock = instanceA.lock(fiveMinutes()).orElseThrow();
        assertThat(locked(name)).isTrue();
        lock.unlock();
        assertThat(locked(name)).isFalse();
    }

    @Test
    void aSecondLockOfAHeldNameFailsOnEveryInstance() {
        SimpleLock lock = instanceA.lock(fiveMinutes()).orElseThrow();
        assertThat(instanceA.lock(fiveMinutes())).isEmpty();
        assertThat(instanceB.lock(fiveMinutes())).isEmpty();
        lock.unlock();
    }

    @Test
    void twoNamesAreIndependent() {
        SimpleLock one = instanceA.lock(fiveMinutes()).orElseThrow();
        SimpleLock two = instanceB.lock(config(name + "-2", Duration.ofMinutes(5), Duration.ZERO)).orElseThrow();
        one.unlock();
        two.unlock();
    }

    @Test
    void unlockFreesItForTheNextRightAway() {
        for (int i = 0; i < 10; i++) {
            SimpleLock lock = (i % 2 == 0 ? instanceA : instanceB).lock(fiveMinutes()).orElseThrow();
            assertThat(instanceA.lock(fiveMinutes())).as("round %d", i).isEmpty();
            lock.unlock();
        }
    }

    @Test
    void lockAtMostForBoundsItAlthoughTheHolderNeverUnlocks() {
        lockA(Duration.ofMillis(300));
        awaitUnlocked();
        instanceB.lock(config(Duration.ofMillis(300), Duration.ZERO)).orElseThrow().unlock();
    }

    @Test
    void lockAtLeastForKeepsItAfterAnEarlyUnlock() {
        SimpleLock lock = instanceA.lock(config(Duration.ofSeconds(4), Duration.ofSeconds(2))).orElseThrow();
        lock.unlock();

        assertThat(instanceB.lock(fiveMinutes())).as("the same tick, fired a little later").isEmpty();
        assertThat(redkit.commands().ttl(key(name))).get()
                .matches(t -> t.compareTo(Duration.ofSeconds(2)) <= 0, "kept until lockAtLeastFor, no longer");
        awaitUnlocked();
        instanceB.lock(fiveMinutes()).orElseThrow().unlock();
    }

    @Test
    void theHolderExtendsIt() {
        SimpleLock lock = lockA(Duration.ofSeconds(2));
        SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        extended = extended.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        extended = extended.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();

        assertThat(redkit.commands().ttl(key(name))).get()
                .matches(t -> t.compareTo(Duration.ofSeconds(2)) > 0, "past the original lockAtMostFor");
        assertThat(instanceB.lock(fiveMinutes())).isEmpty();
        extended.unlock();
        assertThat(locked(name)).isFalse();
    }

    @Test
    void extendingWithLockAtLeastForKeepsItAfterUnlock() {
        SimpleLock lock = lockA(Duration.ofSeconds(10));
        lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow().unlock();
        assertThat(locked(name)).isTrue();
    }

    @Test
    void anExpiredLockIsNotExtendedAndStaysFree() {
        SimpleLock lock = lockA(Duration.ofMillis(300));
        awaitUnlocked();
        assertThat(lock.extend(Duration.ofSeconds(10), Duration.ZERO)).isEmpty();
        assertThat(locked(name)).isFalse();
    }

    @Test
    void extendWorksOnlyForTheHolder() {
        SimpleLock stale = lockA(Duration.ofMillis(300));
        awaitUnlocked();
        SimpleLock holder = instanceB.lock(config(Duration.ofSeconds(20), Duration.ZERO)).orElseThrow();
        String token = redkit.commands().getString(key(name)).orElseThrow();

        assertThat(stale.extend(Duration.ofMinutes(5), Duration.ZERO)).isEmpty();

        assertThat(redkit.commands().getString(key(name))).contains(token);
        assertThat(redkit.commands().ttl(key(name))).get()
                .matches(t -> t.compareTo(Duration.ofSeconds(20)) <= 0, "the holder's bound, not the stale one's");
        holder.unlock();
        assertThat(locked(name)).isFalse();
    }

    @Test
    void anUnlockedOrExtendedLockCannotBeUsedAgain() {
        SimpleLock unlocked = lockA(Duration.ofSeconds(10));
        unlocked.unlock();
        assertThatThrownBy(() -> unlocked.extend(Duration.ofSeconds(10), Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);

        SimpleLock extended = lockA(Duration.ofSeconds(10));
        SimpleLock next = extended.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow();
        assertThatThrownBy(() -> extended.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(extended::unlock).isInstanceOf(IllegalStateException.class);
        next.unlock();
    }

    @Test
    void aLockAtMostForShorterThanALeaseCanLiveIsRefusedNotSilentlyBusy() {
        assertThatThrownBy(() -> instanceA.lock(config(Duration.ofMillis(50), Duration.ZERO)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("atMost");
        assertThat(locked(name)).isFalse();
    }
}
