package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.MeterRegistry;
import io.redkit.Outcome;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.testing.RedisSentinelExtension;
import io.redkit.testing.RedisServer;
import io.redkit.testing.ReplicationCut;

/**
 * The seeds' warning, "when the master fails over the lock can vanish", on a real Sentinel group (1 master, 1
 * replica, 3 sentinels) whose replication link is cut: a lock the replica has not confirmed is refused and given
 * back, never leased; without replica acks the master's word is taken, and a failover hands the lock to a second
 * holder. The WAIT blocks only its own dedicated connection, and an unconfirmed extension renews nothing.
 */
class SentinelReplicaAcksIT {

    @RegisterExtension
    static final RedisSentinelExtension sentinel = RedisSentinelExtension.create();

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private Redkit client() {
        Redkit redkit = Redkit.create(RedkitConfig.builder().url(sentinel.url()).build());
        opened.add(redkit);
        // The cut refuses new connections to the master (its password changes): a dedicated connection opened
        // before it is one the pool hands out again, as a partition that only separates the replica would allow.
        redkit.dedicated().close();
        return redkit;
    }

    private Lock lock(Redkit redkit, String name, Consumer<LockConfig.Builder> settings) {
        LockConfig.Builder builder = LockConfig.builder();
        settings.accept(builder);
        Locks locks = Locks.create(redkit, builder.build());
        opened.add(0, locks);
        return locks.lock(name);
    }

    private static String unique(String what) {
        return what + "-" + UUID.randomUUID();
    }

    @Test
    void anAcquisitionNoReplicaConfirmedIsRefusedAndLeavesNoLock() {
        Redkit redkit = client();
        Lock lock = lock(redkit, unique("report"), b -> { });
        Duration timeout = LockConfig.DEFAULT_REPLICA_ACK_TIMEOUT;

        // Replication up: granted, after the replica confirmed it.
        lock.tryAcquire().orElseThrow().close();

        try (ReplicationCut cut = sentinel.master().cutReplicationLinks()) {
            long start = System.nanoTime();
            assertThatThrownBy(lock::tryAcquire).isInstanceOfSatisfying(LockNotReplicatedException.class, e -> {
                assertThat(e.required()).isEqualTo(1);
                assertThat(e.acknowledged()).isZero();
                assertThat(e.lockName()).isEqualTo(lock.name());
            }).hasMessageContaining("0 of 1 replicas within 1000 ms");
            Duration refusedAfter = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf("[figures] SentinelReplicaAcksIT replica cut off: acquisition refused after %d ms"
                    + " (timeout %d ms)%n", refusedAfter.toMillis(), timeout.toMillis());
            // The owner-checked release ran before the refusal was thrown: the lock is free for the next one.
            assertThat(redkit.commands().exists(lock.key())).isZero();
            assertThat(refusedAfter).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.plusSeconds(2));
            // acquire() and runLocked() say the same, not "busy".
            assertThatThrownBy(() -> lock.runLocked(Duration.ofSeconds(1), l -> "ran"))
                    .isInstanceOf(LockNotReplicatedException.class);
        }

        MeterRegistry meters = redkit.meters();
        assertThat(meters.get("redkit.lock.replicas.refused").tag("op", "acquire")
                .tag("cause", "too_few_replicas").counter().count()).isEqualTo(2);
        assertThat(meters.get("redkit.lock.replicas.confirmed").tag("op", "acquire").counter().count()).isEqualTo(1);
        assertThat(meters.get("redkit.lock.replicas.wait").tag("op", "acquire").timer().count()).isEqualTo(3);
        assertThat(meters.get("redkit.lock.busy").counter().count()).as("refused, not busy").isZero();
        // With the link back, granted again.
        assertThat(lock.tryAcquire().orElseThrow().release()).isEqualTo(ReleaseResult.RELEASED);
    }

    @Test
    void aWaitThatFailsIsARefusalWithItsCauseAndLeavesNoLock() {
        Redkit redkit = client();
        Lock lock = lock(redkit, unique("killed-wait"), b -> { });

        try (ReplicationCut cut = sentinel.master().cutReplicationLinks()) {
            CompletableFuture<Optional<Lease>> acquiring = CompletableFuture.supplyAsync(lock::tryAcquire);
            // The acquisition's WAIT blocks (nothing reaches the replica); its connection is killed under it.
            String waiting = await().atMost(Duration.ofSeconds(2)).until(() -> waitingClient(cut), id -> id != null);
            cut.command("CLIENT", "KILL", "ID", waiting);

            assertThatThrownBy(() -> acquiring.get(5, TimeUnit.SECONDS)).cause()
                    .isInstanceOfSatisfying(LockNotReplicatedException.class, e -> {
                        assertThat(e.required()).isEqualTo(-1);
                        assertThat(e.getCause()).isNotNull();
                        assertThat(e.outcome()).isEqualTo(Outcome.NOT_EXECUTED);
                    });
            // Given back before the caller heard: nobody waits a TTL for a lock nobody holds.
            assertThat(redkit.commands().exists(lock.key())).isZero();
        }
    }

    /** The id of the client blocked in a WAIT on the master, if any. */
    private static String waitingClient(ReplicationCut cut) {
        for (String line : String.valueOf(cut.command("CLIENT", "LIST")).split("\n")) {
            if (line.contains("cmd=wait")) {
                return line.substring(line.indexOf("id=") + 3).split(" ")[0];
            }
        }
        return null;
    }

    @Test
    void aCountOfReplicasTheGroupDoesNotHaveIsNeverConfirmed() {
        Redkit redkit = client();
        Lock lock = lock(redkit, unique("two"), b -> b.replicaAcks(ReplicaAcks.of(2))
                .replicaAckTimeout(Duration.ofMillis(100)));
        assertThatThrownBy(lock::tryAcquire).isInstanceOfSatisfying(LockNotReplicatedException.class, e -> {
            assertThat(e.required()).isEqualTo(2);
            assertThat(e.acknowledged()).isEqualTo(1);
        });
        assertThat(redkit.commands().exists(lock.key())).isZero();
    }

    @Test
    void withoutReplicaAcksAFailoverHandsTheLockToASecondHolderWithThemTheFirstIsRefused() {
        String name = unique("job");
        Redkit a = client();
        Lock confirmed = lock(a, name, b -> { });
        // No watchdog and a TTL longer than the test: A's lease stays valid however slow the promotion is (its
        // first extension, to a dead master, would otherwise end it after a third of the TTL).
        Lock plain = lock(a, name, b -> b.replicaAcks(ReplicaAcks.none()).watchdog(false)
                .ttl(Duration.ofSeconds(60)));
        RedisServer master = sentinel.master();
        long start = System.nanoTime();
        Lease aLease;
        try (ReplicationCut cut = master.cutReplicationLinks()) {
            assertThatThrownBy(confirmed::tryAcquire).isInstanceOf(LockNotReplicatedException.class);
            aLease = plain.tryAcquire().orElseThrow(); // the master's word alone
            master.kill(); // before its replica got the lock
        }
        RedisServer promoted = sentinel.group().awaitNewMaster(master, Duration.ofSeconds(30));
        long promotedAt = System.nanoTime();

        Redkit bClient = client();
        Lock b = lock(bClient, name, c -> c.replicaAcks(ReplicaAcks.none()));
        Optional<Lease> bLease = await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(b::tryAcquire, Optional::isPresent);
        long bAt = System.nanoTime();

        System.out.printf("[figures] SentinelReplicaAcksIT failover after a cut: the confirmed acquisition refused;"
                + " A's plain lease, master killed, replica promoted %d ms after the start, B acquired %d ms after"
                + " the promotion while A's lease is still valid: %s%n", (promotedAt - start) / 1_000_000,
                (bAt - promotedAt) / 1_000_000, aLease.isValid());
        assertThat(promoted).isNotSameAs(master);
        assertThat(aLease.isValid()).as("A still believes it holds the lock").isTrue();
        assertThat(bLease).as("two holders: the promoted replica never had A's lock").isPresent();
    }

    @Test
    void theSharedConnectionAnswersWhileAnAcquisitionWaitsForItsReplicas() throws Exception {
        Redkit redkit = client();
        Lock lock = lock(redkit, unique("stall"), b -> { });
        String probe = unique("probe");
        redkit.commands().setString(probe, "answered", Duration.ofMinutes(1));

        try (ReplicationCut cut = sentinel.master().cutReplicationLinks()) {
            long start = System.nanoTime();
            CompletableFuture<Optional<Lease>> acquiring = CompletableFuture.supplyAsync(lock::tryAcquire);
            await().atMost(Duration.ofSeconds(2)).until(() -> cut.command("CLIENT", "LIST").toString()
                    .contains("cmd=wait"));
            long gets = 0;
            long slowestGet = 0;
            while (!acquiring.isDone()) {
                long sent = System.nanoTime();
                assertThat(redkit.commands().getString(probe)).contains("answered");
                slowestGet = Math.max(slowestGet, System.nanoTime() - sent);
                gets++;
            }
            long waited = System.nanoTime() - start;
            assertThatThrownBy(() -> acquiring.get(5, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(LockNotReplicatedException.class);

            System.out.printf("[figures] SentinelReplicaAcksIT while an acquisition waited %d ms for its replica:"
                    + " %d GETs on the shared connection, slowest %.1f ms%n", waited / 1_000_000, gets,
                    slowestGet / 1e6);
            assertThat(gets).isPositive();
            // On the shared connection a GET sent behind the WAIT would answer only when the WAIT did.
            assertThat(slowestGet).isLessThan(waited / 4);
        }
    }

    @Test
    void anUnconfirmedExtensionDoesNotRenewTheValidity() {
        Redkit redkit = client();
        Duration ttl = Duration.ofSeconds(3);
        Lock lock = lock(redkit, unique("extend"), b -> b.ttl(ttl));
        Lease lease = lock.tryAcquire().orElseThrow();

        try (ReplicationCut cut = sentinel.master().cutReplicationLinks()) {
            // The watchdog extends at 1 s and 2 s; the master takes each, the replica confirms neither.
            await().atMost(ttl.plusSeconds(2)).until(() -> !lease.isValid());
            assertThatThrownBy(lease::ensureHeld).isInstanceOfSatisfying(LockLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.VALIDITY_EXPIRED));
            // The master still holds our token, its expiry pushed by the extensions the replica never confirmed.
            assertThat(redkit.commands().getString(lease.key())).contains(lease.ownerToken());
            assertThat(redkit.meters().get("redkit.lock.replicas.refused").tag("op", "extend")
                    .tag("cause", "too_few_replicas").counter().count()).isGreaterThanOrEqualTo(1);
        }
    }
}
