package io.redkit.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import io.redkit.DedicatedConnection;
import io.redkit.KeySchema;
import io.redkit.Outcome;
import io.redkit.RedisOps;
import io.redkit.RedkitException;
import io.redkit.ReplicaAck;

/**
 * Deletes entries, never writes them: UNLINK of each entry together with its fill lease (so that a load in flight
 * cannot write back), and bulk deletion by SCAN + UNLINK on every master. Invalidation does not go through the
 * breaker: skipping it would leave stale entries behind.
 *
 * <p>Bulk deletion scans twice. SCAN only promises the keys that exist for the whole scan: a fill that lands
 * during the first pass (it deletes its lease and writes its entry in one step) may hide from it, on either side
 * of the cursor. Every fill that began before the invalidation has either landed by the end of the first pass, and
 * the second pass (during which that entry exists throughout) deletes it, or still holds its lease, which the
 * first pass saw throughout and deleted, so it can never land.
 */
final class Invalidator {

    private static final int SCAN_PAGE = 500;
    /** How long the replicas are given to confirm an invalidation (Redisson gives its lock's WAIT as long). */
    static final Duration REPLICA_WAIT = Duration.ofSeconds(1);
    private static final byte[] TOMBSTONE = new byte[0];
    private static final Duration TOMBSTONE_TTL = Duration.ofMillis(1);

    private final RedisOps commands;
    private final RedisOps background;
    private final KeySchema schema;
    private final UnaryOperator<String> leaseOf;
    private final GuardedRedis redis;
    private final Supplier<DedicatedConnection> dedicated;

    Invalidator(RedisOps commands, RedisOps background, KeySchema schema, UnaryOperator<String> leaseOf,
            GuardedRedis redis, Supplier<DedicatedConnection> dedicated) {
        this.commands = commands;
        this.background = background;
        this.schema = schema;
        this.leaseOf = leaseOf;
        this.redis = redis;
        this.dedicated = dedicated;
    }

    /** UNLINKs the entries and their leases; how many of those keys existed. */
    long unlink(List<String> entryKeys) {
        try {
            return commands.unlink(withLeases(entryKeys));
        } catch (RedkitException e) {
            redis.countFailure(e);
            throw e;
        }
    }

    /**
     * UNLINKs the entries and their leases on a dedicated connection and waits for the replicas the topology knows
     * to have it ({@link DedicatedConnection#awaitReplicas}): an UNLINK only the master took is lost if it fails
     * over before replicating it, and the promoted replica serves the old entry again.
     *
     * @return whether every replica that had to confirm did (no replicas known: whether the UNLINK was taken)
     */
    boolean unlinkConfirmed(List<String> entryKeys) {
        String[] entries = entryKeys.toArray(new String[0]);
        List<String> written = new ArrayList<>(entryKeys.size() * 2);
        written.addAll(entryKeys);
        try (DedicatedConnection connection = dedicated.get()) {
            RedisOps ops = connection.ops();
            // WAIT counts only what this connection wrote, and an UNLINK of keys already gone writes nothing: a
            // wait after it alone would pass at once, the first UNLINK (on the shared connection) perhaps not yet
            // replicated. A lease overwritten with an empty one that expires at once always is, and every write a
            // master took before it reaches a replica before it; it stops a load in flight from writing back,
            // as the UNLINK of the lease did.
            List<CompletableFuture<Void>> tombstones = new ArrayList<>(entryKeys.size());
            for (String key : entryKeys) {
                String lease = leaseOf.apply(key);
                written.add(lease);
                tombstones.add(ops.setAsync(lease, TOMBSTONE, TOMBSTONE_TTL));
            }
            ops.unlink(entries);
            for (CompletableFuture<Void> tombstone : tombstones) {
                tombstone.join();
            }
            ReplicaAck ack = connection.awaitReplicas(REPLICA_WAIT, written);
            return ack.confirmed();
        } catch (CompletionException e) {
            RedkitException cause = e.getCause() instanceof RedkitException r ? r
                    : new RedkitException("invalidation failed", Outcome.UNKNOWN, e.getCause());
            redis.countFailure(cause);
            throw cause;
        } catch (RedkitException e) {
            redis.countFailure(e);
            throw e;
        }
    }

    private String[] withLeases(List<String> entryKeys) {
        List<String> keys = new ArrayList<>(entryKeys.size() * 2);
        for (String key : entryKeys) {
            keys.add(key);
            keys.add(leaseOf.apply(key));
        }
        return keys.toArray(new String[0]);
    }

    /** SCAN MATCH the escaped prefix pattern, UNLINK page by page, twice; never KEYS. How many keys went. */
    long unlinkByPrefix(String... prefixParts) {
        String pattern = schema.pattern(prefixParts);
        AtomicLong unlinked = new AtomicLong();
        try {
            for (int pass = 0; pass < 2; pass++) {
                background.scan(pattern, SCAN_PAGE, page -> unlinked.addAndGet(
                        background.unlink(page.toArray(new String[0]))));
            }
        } catch (RedkitException e) {
            redis.countFailure(e);
            throw e;
        }
        return unlinked.get();
    }
}
