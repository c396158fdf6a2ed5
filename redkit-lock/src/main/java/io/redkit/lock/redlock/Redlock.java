package io.redkit.lock.redlock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.KeySchema;
import io.redkit.Outcome;
import io.redkit.RedisOps;
import io.redkit.RedkitClock;
import io.redkit.Redkit;
import io.redkit.RedkitException;
import io.redkit.lock.LockScripts;
import io.redkit.lock.internal.OwnerTokens;

/**
 * Redlock over N independent Redis masters (5 by default): the key is set on each in turn with a small per-node
 * timeout, and the lock is ours when a quorum (N/2+1) took it and validity = ttl − elapsed − drift is still
 * positive; otherwise it is released on every node, including those that did not answer.
 *
 * <p><b>Efficiency, not correctness.</b> Redlock keeps two well-behaved processes from doing the same work
 * twice. It does not make mutual exclusion safe: a holder paused by GC past its validity, a clock jump on a node,
 * or a restarted node without persistence lets two holders overlap. When overlap would corrupt data, use a fenced
 * lock ({@code io.redkit.lock.Locks} with {@code Fencing}) and check the token at the resource
 * ({@code io.redkit.lock.jdbc.FenceGuard}).
 */
public final class Redlock {

    private static final Logger log = LoggerFactory.getLogger(Redlock.class);

    private final List<RedisOps> nodes;
    private final RedkitClock clock;
    private final RedlockConfig config;
    private final KeySchema schema;
    private final int quorum;

    private Redlock(List<RedisOps> nodes, RedkitClock clock, RedlockConfig config) {
        this.nodes = nodes;
        this.clock = clock;
        this.config = config;
        this.schema = KeySchema.of(config.namespace());
        this.quorum = nodes.size() / 2 + 1;
    }

    /**
     * A Redlock over {@code nodes}, one {@link Redkit} per independent master (not replicas of each other, not a
     * Cluster); {@link RedlockConfig#DEFAULT_NODES} is the recommended count.
     */
    public static Redlock create(List<Redkit> nodes, RedlockConfig config) {
        Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(config, "config");
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("Redlock needs at least one node, got none");
        }
        List<RedisOps> ops = new ArrayList<>();
        for (Redkit node : nodes) {
            ops.add(Objects.requireNonNull(node, "node").commands().withTimeout(config.nodeTimeout()));
            node.scripts().register(LockScripts.ACQUIRE, LockScripts.RELEASE);
        }
        // One process, one time source: the first node's client's (DESIGN §2.9).
        return new Redlock(List.copyOf(ops), nodes.get(0).clock(), config);
    }

    /** The time source of validity (the first node's client's). */
    RedkitClock clock() {
        return clock;
    }

    /** The configuration. */
    public RedlockConfig config() {
        return config;
    }

    /** How many nodes must agree: N/2+1. */
    public int quorum() {
        return quorum;
    }

    /** How many nodes there are. */
    public int size() {
        return nodes.size();
    }

    /** One round: a lease when a quorum took the key in time, empty otherwise (after releasing everywhere). */
    public Optional<RedlockLease> tryAcquire(String name) {
        String key = key(name);
        String owner = OwnerTokens.next();
        long start = clock.nanoTime();
        int acquired = 0;
        for (RedisOps node : nodes) {
            if (acquireOn(node, key, owner)) {
                acquired++;
            }
        }
        long elapsed = clock.nanoTime() - start;
        long validity = config.ttl().toNanos() - elapsed - config.clockDrift().toNanos();
        if (acquired >= quorum && validity > 0) {
            return Optional.of(new RedlockLease(this, name, key, owner, acquired, start + elapsed + validity));
        }
        releaseEverywhere(key, owner);
        return Optional.empty();
    }

    /** Rounds until acquired or {@code wait} has passed, pausing a jittered retry delay between them. */
    public Optional<RedlockLease> tryAcquire(String name, Duration wait) {
        Objects.requireNonNull(wait, "wait");
        if (wait.isNegative()) {
            throw new IllegalArgumentException("wait must not be negative, was " + wait);
        }
        long deadline = clock.nanoTime() + wait.toNanos();
        while (true) {
            Optional<RedlockLease> lease = tryAcquire(name);
            long left = deadline - clock.nanoTime();
            if (lease.isPresent() || left <= 0) {
                return lease;
            }
            long delay = config.retryDelay().toNanos();
            long pause = Math.min(left, delay + ThreadLocalRandom.current().nextLong(delay + 1));
            try {
                TimeUnit.NANOSECONDS.sleep(pause); // a deliberate pause between rounds, not a wait for a condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedkitException("interrupted while waiting for Redlock '" + name + "'; not acquired",
                        Outcome.NOT_EXECUTED, e);
            }
        }
    }

    private boolean acquireOn(RedisOps node, String key, String owner) {
        try {
            long reply = node.eval(LockScripts.ACQUIRE, List.of(key, schema.child(key, "waiting")), owner,
                    Long.toString(config.ttl().toMillis()), "0");
            return reply == 0;
        } catch (RedkitException e) {
            log.debug("Redlock node refused or did not answer for {}: {}", key, e.getMessage());
            return false;
        }
    }

    /** Compare-and-delete on every node at once; how many still held our token. */
    int releaseEverywhere(String key, String owner) {
        byte[] token = owner.getBytes(StandardCharsets.UTF_8);
        byte[] channel = (config.namespace() + ":released").getBytes(StandardCharsets.UTF_8);
        List<CompletableFuture<Long>> replies = new ArrayList<>();
        for (RedisOps node : nodes) {
            CompletableFuture<Long> reply;
            try {
                reply = node.evalAsync(LockScripts.RELEASE, List.of(key, schema.child(key, "waiting")), token,
                        channel).exceptionally(e -> 0L);
            } catch (RuntimeException e) {
                reply = CompletableFuture.completedFuture(0L);
            }
            replies.add(reply);
        }
        int released = 0;
        for (CompletableFuture<Long> reply : replies) {
            released += reply.join() == 1 ? 1 : 0;
        }
        return released;
    }

    private String key(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("lock name must not be null or blank, was '" + name + "'");
        }
        return schema.nameKey(name);
    }
}
