package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.cluster.SlotHash;
import io.redkit.Redkit;
import io.redkit.testing.RedisClusterExtension;
import io.redkit.testing.RedisServer;
import io.redkit.testing.ReplicationCut;

/**
 * On Cluster, {@link ReplicaAcks#auto()} waits for the replicas of the master of the lock's own slot: a lock whose
 * master is cut off from its replica is refused, while a lock on another master, whose replica is attached, is
 * granted in the same moment.
 */
class ClusterReplicaAcksIT {

    @RegisterExtension
    static final RedisClusterExtension cluster = RedisClusterExtension.create();

    @Test
    void autoWaitsForTheReplicasOfTheLockSlotsOwnMaster() {
        try (Redkit redkit = Redkit.connect(cluster.url()); Locks locks = Locks.create(redkit, LockConfig.defaults())) {
            Lock cutOff = locks.lock("cut-" + UUID.randomUUID());
            RedisServer cutMaster = cluster.masterForKey(cutOff.key());
            Lock elsewhere = lockOnAnotherMaster(locks, cutMaster);

            // Both granted with replication up; this also opens the dedicated connection's link to each master
            // before the cut, which refuses new connections to its master.
            elsewhere.tryAcquire().orElseThrow().close();
            cutOff.tryAcquire().orElseThrow().close();

            try (ReplicationCut cut = cutMaster.cutReplicationLinks()) {
                assertThatThrownBy(cutOff::tryAcquire).isInstanceOfSatisfying(LockNotReplicatedException.class, e -> {
                    assertThat(e.required()).as("the one replica of the slot's master").isEqualTo(1);
                    assertThat(e.acknowledged()).isZero();
                });
                assertThat(redkit.commands().exists(cutOff.key())).isZero();
                try (Lease lease = elsewhere.tryAcquire().orElseThrow()) {
                    assertThat(lease.isValid()).isTrue();
                }
            }
            assertThat(redkit.meters().get("redkit.lock.replicas.confirmed").tag("op", "acquire").counter().count())
                    .isEqualTo(3);
        }
    }

    /*
     * The WAIT must go on the connection the lock's script went out on: a WAIT on another connection, which wrote
     * nothing since the replica's last acknowledgement, answers at once that every replica has it. A paused replica
     * is still attached (unlike a cut one, which no WAIT anywhere would count), so only the right connection is
     * refused here.
     */
    @Test
    void aReplicaThatHasNotTheLockWriteIsNotCountedThoughItIsAttached() {
        try (Redkit redkit = Redkit.connect(cluster.url()); Locks locks = Locks.create(redkit, LockConfig.builder()
                .replicaAckTimeout(Duration.ofMillis(200)).build())) {
            Lock lock = locks.lock("paused-" + UUID.randomUUID());
            RedisServer master = cluster.masterForKey(lock.key());
            lock.tryAcquire().orElseThrow().close(); // confirmed with the replica running
            RedisServer replica = cluster.cluster().replicaOf(master);
            replica.pause();
            try {
                assertThatThrownBy(lock::tryAcquire).isInstanceOfSatisfying(LockNotReplicatedException.class,
                        e -> assertThat(e.acknowledged()).isZero());
            } finally {
                replica.resume();
            }
        }
    }

    /*
     * A lock whose slot has just moved: the client's slot map still names the old master, the script is redirected
     * (MOVED) to the new one, and a WAIT sent to the old one would answer at once from what its replica already had.
     * The new master's replica is paused, so only a confirmation asked of the node that took the lock can refuse.
     */
    @Test
    void anAcquisitionRedirectedByASlotMoveIsNotConfirmedByTheOldMaster() {
        try (Redkit redkit = Redkit.connect(cluster.url()); Locks locks = Locks.create(redkit, LockConfig.builder()
                .replicaAckTimeout(Duration.ofMillis(200)).build())) {
            Lock lock = locks.lock("moving-" + UUID.randomUUID());
            RedisServer source = cluster.masterForKey(lock.key());
            lock.tryAcquire().orElseThrow().close(); // confirmed on the old master; the slot map names it
            RedisServer target = cluster.masters().stream().filter(m -> m != source).findFirst().orElseThrow();
            RedisServer targetReplica = cluster.cluster().replicaOf(target);
            cluster.cluster().migrateSlot(SlotHash.getSlot(lock.key()), target);
            targetReplica.pause();
            try {
                assertThatThrownBy(lock::tryAcquire).isInstanceOf(LockNotReplicatedException.class);
                assertThat(redkit.commands().exists(lock.key())).as("given back where it was taken").isZero();
            } finally {
                targetReplica.resume();
            }
        }
    }

    private static Lock lockOnAnotherMaster(Locks locks, RedisServer master) {
        while (true) {
            Lock lock = locks.lock("elsewhere-" + UUID.randomUUID());
            if (cluster.masterForKey(lock.key()) != master) {
                return lock;
            }
        }
    }
}
