package io.redkit.lock.internal;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import io.redkit.DedicatedConnection;
import io.redkit.Redkit;
import io.redkit.RedkitClock;
import io.redkit.RedkitException;
import io.redkit.ReplicaAck;
import io.redkit.Topology;
import io.redkit.lock.LockConfig;
import io.redkit.lock.LockScripts;
import io.redkit.lock.ReplicaAcks;

/**
 * How a lock's writes are confirmed by its replicas: the script and its {@code WAIT} on one dedicated connection,
 * because {@code WAIT} counts only its own connection's writes and blocks that connection until the replicas answer
 * (on the shared one, a replica that is down would stall every other command for the whole timeout). Inactive when
 * nothing must confirm ({@link ReplicaAcks#none()}, or {@link ReplicaAcks#auto()} on a standalone server, whose
 * replicas the client does not know): then locks keep the shared connection and send no {@code WAIT}.
 *
 * <p>{@code WAITAOF} (Redis 7.2 and later, with the AOF on) would also confirm that the master and its replicas
 * wrote the lock to disk; it is not offered yet: the servers redkit is tested on here are Redis 7.0, which lacks it,
 * and an option that cannot be tested is not shipped.
 */
final class ReplicaConfirmation {

    private final ReplicaAcks acks;
    private final Duration timeout;
    private final Supplier<DedicatedConnection> dedicated;
    private final boolean active;
    private final boolean cluster;
    private final RedkitClock clock;

    ReplicaConfirmation(ReplicaAcks acks, Duration timeout, Topology topology, Supplier<DedicatedConnection> dedicated,
            RedkitClock clock) {
        this.acks = acks;
        this.clock = clock;
        this.timeout = timeout;
        this.dedicated = dedicated;
        this.cluster = topology == Topology.CLUSTER;
        this.active = acks.mode() == ReplicaAcks.Mode.COUNT
                || acks.mode() == ReplicaAcks.Mode.AUTO && topology != Topology.STANDALONE;
    }

    static ReplicaConfirmation of(Redkit redkit, LockConfig config) {
        return new ReplicaConfirmation(config.replicaAcks(), config.replicaAckTimeout(), redkit.topology(),
                redkit::dedicated, redkit.clock());
    }

    /** Whether writes wait for replicas; when false, no dedicated connection is taken and no WAIT sent. */
    boolean active() {
        return active;
    }

    /** A dedicated connection for a script and its wait; close it to give it back. */
    DedicatedConnection connection() {
        return dedicated.get();
    }

    /** Waits for the replicas to have what {@code connection} wrote to {@code key} so far. */
    ReplicaAck await(DedicatedConnection connection, String key) {
        return acks.mode() == ReplicaAcks.Mode.COUNT
                ? connection.awaitReplicas(acks.count(), timeout, List.of(key))
                : connection.awaitReplicas(timeout, List.of(key));
    }

    /**
     * Whether {@code key} holds {@code owner} on the node the wait asked. On Cluster a write that met a slot being
     * migrated ({@code ASK}) or already moved ({@code MOVED}, before the slot map is refreshed) was taken by another
     * node than the one the slot map names, where the {@code WAIT} went: that node wrote nothing on this connection
     * and answers at once that its replicas have it all. Read there, without following the redirect, the key is not
     * ours, and the confirmation is worth nothing. Elsewhere the wait asked the one master: true without a read.
     */
    boolean whereConfirmed(DedicatedConnection connection, String key, byte[] owner) {
        return !cluster || connection.getWhereConfirmed(key).map(v -> Arrays.equals(v, owner)).orElse(false);
    }

    /** How long the replicas are given. */
    Duration timeout() {
        return timeout;
    }

    /**
     * The watchdog's extension and its WAIT on one dedicated connection; blocks for up to the timeout, so it runs
     * on the confirmations' pool, never on the watchdog's thread. A failed EVAL fails the extension as on the shared connection; a wait
     * that could not be had (no connection free, the Sentinels not answering) leaves it unconfirmed, like one the
     * replicas did not confirm: the validity, not a guess, then decides.
     */
    Extension extend(String key, byte[] owner, byte[] ttl, Duration scriptTimeout, LockMetrics.Meters meters) {
        DedicatedConnection connection;
        try {
            connection = connection();
        } catch (RedkitException e) {
            meters.replicasRefused(LockMetrics.ReplicaOp.EXTEND, LockMetrics.RefusalCause.WAIT_FAILED, -1);
            return Extension.UNCONFIRMED;
        }
        try (connection) {
            long extended = connection.ops().withTimeout(scriptTimeout).eval(LockScripts.EXTEND, List.of(key), owner,
                    ttl);
            if (extended != 1) {
                return Extension.REFUSED;
            }
            Confirmation confirmation = confirm(connection, key, owner, LockMetrics.ReplicaOp.EXTEND,
                    LockMetrics.RefusalCause.SLOT_MOVED, meters);
            return confirmation.outcome() == Confirmed.YES ? Extension.CONFIRMED : Extension.UNCONFIRMED;
        }
    }

    /**
     * Waits for the replicas to have what {@code connection} wrote to {@code key} (as {@code owner}), then, on
     * Cluster, reads it back where the wait went ({@link #whereConfirmed}); counts the outcome under {@code op}.
     * A read-back that fails counts as {@code readBackFailed}: an acquisition has always counted it as a failed
     * wait, an extension as a moved slot (one label for both would change a meter: a decision not taken here).
     */
    Confirmation confirm(DedicatedConnection connection, String key, byte[] owner, LockMetrics.ReplicaOp op,
            LockMetrics.RefusalCause readBackFailed, LockMetrics.Meters meters) {
        long waitFrom = clock.nanoTime();
        ReplicaAck ack;
        try {
            ack = await(connection, key);
        } catch (RedkitException e) {
            meters.replicasRefused(op, LockMetrics.RefusalCause.WAIT_FAILED, -1);
            return new Confirmation(Confirmed.WAIT_FAILED, null, e);
        }
        long waited = clock.nanoTime() - waitFrom;
        if (!ack.confirmed()) {
            meters.replicasRefused(op, LockMetrics.RefusalCause.TOO_FEW_REPLICAS, waited);
            return new Confirmation(Confirmed.TOO_FEW_REPLICAS, ack, null);
        }
        boolean there;
        try {
            there = whereConfirmed(connection, key, owner);
        } catch (RedkitException e) {
            meters.replicasRefused(op, readBackFailed, waited);
            return new Confirmation(readBackFailed == LockMetrics.RefusalCause.SLOT_MOVED ? Confirmed.SLOT_MOVED
                    : Confirmed.WAIT_FAILED, ack, e);
        }
        if (!there) {
            meters.replicasRefused(op, LockMetrics.RefusalCause.SLOT_MOVED, waited);
            return new Confirmation(Confirmed.SLOT_MOVED, ack, null);
        }
        meters.replicasConfirmed(op, waited);
        return new Confirmation(Confirmed.YES, ack, null);
    }

    /** What a confirmation came to. */
    enum Confirmed {
        YES, WAIT_FAILED, TOO_FEW_REPLICAS, SLOT_MOVED
    }

    /**
     * A confirmation's outcome, the replicas' answer (null when the wait failed) and the failure (null unless the
     * wait or the read-back failed).
     */
    record Confirmation(Confirmed outcome, ReplicaAck ack, RedkitException failure) {
    }

    /** What an extension came to: renewed and confirmed (or nothing had to confirm), refused, or unconfirmed. */
    enum Extension {
        CONFIRMED, REFUSED, UNCONFIRMED
    }
}
