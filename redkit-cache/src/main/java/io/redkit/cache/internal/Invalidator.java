package io.redkit.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
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
    // A fill lease is its entry's child "fill" (Filler.lease): the entry's key, which ends with its tag, then this.
    private static final String LEASE_SUFFIX = ":fill";
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
     * What {@link #unlinkAnnounced} did: how many of the keys existed, and whether the announcement ran on the server
     * after the UNLINK (false: it may have run before a resent UNLINK, or was not sent; announce again).
     */
    record Announced(long existed, boolean after) {
    }

    /**
     * {@link #unlink}, with {@code announce}'s message (a PUBLISH on the same connection) sent right behind the
     * UNLINK instead of after its reply: the other instances hear of it one round trip sooner, and still after the
     * server ran the UNLINK, since one connection's commands run in the order they were sent (standalone and
     * Sentinel; on Cluster the PUBLISH may go to another node, so it is not used there).
     *
     * <p>A resent UNLINK (its first attempt failed) goes out after the announcement, which then may run first: an
     * instance could read the old entry again after hearing of it. Replies come back in order, so the
     * announcement's reply arriving before the UNLINK's final one means exactly that; {@code after} is then false,
     * and the caller announces again.
     */
    Announced unlinkAnnounced(List<String> entryKeys, Supplier<CompletableFuture<Long>> announce) {
        AtomicReference<CompletableFuture<Long>> announced = new AtomicReference<>();
        AtomicBoolean overtaken = new AtomicBoolean();
        CompletableFuture<Long> unlinked;
        try {
            unlinked = commands.unlinkAsync(withLeases(entryKeys)).whenComplete((n, e) -> {
                CompletableFuture<Long> a = announced.get();
                overtaken.set(a != null && a.isDone());
            });
        } catch (RedkitException e) {
            redis.countFailure(e);
            throw e;
        }
        announced.set(announce.get());
        try {
            long existed = unlinked.join();
            return new Announced(existed, announced.get() != null && !overtaken.get());
        } catch (CompletionException e) {
            RedkitException failure = unwrapped(e);
            redis.countFailure(failure);
            throw failure;
        }
    }

    /** What an UNLINK on a dedicated connection did: how many entries existed, and whether the replicas have it. */
    record Unlinked(long existed, boolean confirmed) {
    }

    /**
     * UNLINKs the entries and their leases on a dedicated connection and waits for the replicas the topology knows
     * to have it ({@link DedicatedConnection#awaitReplicas}): an UNLINK only the master took is lost if it fails
     * over before replicating it, and the promoted replica serves the old entry again. {@code confirmed} is
     * whether every replica that had to confirm did (none known: whether the UNLINK was taken).
     */
    Unlinked unlinkConfirmed(List<String> entryKeys) {
        try {
            return sendConfirmed(entryKeys);
        } catch (RedkitException e) {
            redis.countFailure(e);
            throw e;
        }
    }

    private Unlinked sendConfirmed(List<String> entryKeys) {
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
            long existed = ops.unlink(entries);
            for (CompletableFuture<Void> tombstone : tombstones) {
                tombstone.join();
            }
            ReplicaAck ack = connection.awaitReplicas(REPLICA_WAIT, written);
            return new Unlinked(existed, ack.confirmed());
        } catch (CompletionException e) {
            throw unwrapped(e);
        }
    }

    /** What a joined command failed with, as redkit's exception. */
    private static RedkitException unwrapped(CompletionException e) {
        return e.getCause() instanceof RedkitException r ? r
                : new RedkitException("invalidation failed", Outcome.UNKNOWN, e.getCause());
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
        return scanPrefix(page -> background.unlink(page.toArray(new String[0])), prefixParts);
    }

    /**
     * {@link #unlinkByPrefix}, each page's entries sent again with their replicas' confirmation (see {@link
     * #unlinkConfirmed}), for a topology whose master may fail over before replicating what it took. The entries of
     * a page the replicas did not confirm in time go to {@code unconfirmed}. How many entries existed.
     */
    long unlinkByPrefixConfirmed(Consumer<List<String>> unconfirmed, String... prefixParts) {
        return scanPrefix(page -> {
            List<String> entries = entriesOf(page);
            Unlinked unlinked = sendConfirmed(entries);
            if (!unlinked.confirmed()) {
                unconfirmed.accept(entries);
            }
            return unlinked.existed();
        }, prefixParts);
    }

    private long scanPrefix(ToLongFunction<List<String>> unlinkPage, String... prefixParts) {
        String pattern = schema.pattern(prefixParts);
        AtomicLong unlinked = new AtomicLong();
        try {
            for (int pass = 0; pass < 2; pass++) {
                background.scan(pattern, SCAN_PAGE, page -> unlinked.addAndGet(unlinkPage.applyAsLong(page)));
            }
        } catch (RedkitException e) {
            redis.countFailure(e);
            throw e;
        }
        return unlinked.get();
    }

    /** The entries a page of scanned keys names: each entry itself, and a fill lease's entry. */
    private List<String> entriesOf(List<String> page) {
        Set<String> entries = new LinkedHashSet<>(page.size());
        for (String key : page) {
            boolean lease = key.endsWith("}" + LEASE_SUFFIX);
            entries.add(lease ? key.substring(0, key.length() - LEASE_SUFFIX.length()) : key);
        }
        return new ArrayList<>(entries);
    }
}
