package io.redkit.lock.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.micrometer.common.KeyValue;
import io.redkit.DedicatedConnection;
import io.redkit.ObservedOperation;
import io.redkit.Outcome;
import io.redkit.RedisOps;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitException;
import io.redkit.lock.Fencing;
import io.redkit.lock.Lease;
import io.redkit.lock.LeaseBounds;
import io.redkit.lock.Lock;
import io.redkit.lock.LockBusyException;
import io.redkit.lock.LockConfig;
import io.redkit.lock.LockNotReplicatedException;
import io.redkit.lock.LockScripts;
import io.redkit.lock.LockedWork;

/** One named lock: attempts, the wait loop, and {@code runLocked}. */
final class DefaultLock implements Lock {

    private static final KeyValue ACQUIRED = ObservedOperation.outcome("acquired");
    private static final KeyValue BUSY = ObservedOperation.outcome("busy");

    private static final byte[] NO_WAIT = {'0'};

    private final LockRuntime runtime;
    private final ReleaseSignals signals;
    private final LockConfig config;
    private final String name;
    private final String key;
    private final List<String> acquireKeys;
    private final Fencing fencing;
    private final LockMetrics.Meters meters;
    /* The acquire's arguments that are the same on every call, as bytes once (bench lock: per-call strings). */
    private final byte[] configuredTtl;

    DefaultLock(LockRuntime runtime, ReleaseSignals signals, LockMetrics.Meters meters, String name, String key,
            String waitingKey, String fenceKey, Fencing fencing) {
        this.runtime = runtime;
        this.signals = signals;
        this.config = runtime.config();
        this.name = name;
        this.key = key;
        this.acquireKeys = fencing.mode() == Fencing.Mode.REDIS_COUNTER
                ? List.of(key, waitingKey, fenceKey)
                : List.of(key, waitingKey);
        this.fencing = fencing;
        this.meters = meters;
        this.configuredTtl = bytes(Long.toString(config.ttl().toMillis()));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public Optional<Lease> tryAcquire() {
        return observed(Duration.ZERO, null);
    }

    @Override
    public Optional<Lease> tryAcquire(LeaseBounds bounds) {
        return observed(Duration.ZERO, Objects.requireNonNull(bounds, "bounds"));
    }

    private Optional<Lease> tryOnce(LeaseBounds bounds) {
        Attempt attempt = attempt(0, bounds);
        if (attempt.lease != null) {
            return Optional.of(attempt.lease);
        }
        meters.busy();
        return Optional.empty();
    }

    @Override
    public Optional<Lease> tryAcquire(Duration wait) {
        Objects.requireNonNull(wait, "wait");
        if (wait.isNegative()) {
            throw new IllegalArgumentException("wait must not be negative, was " + wait);
        }
        if (wait.compareTo(config.maxWait()) > 0) {
            throw new IllegalArgumentException("wait " + wait + " for lock '" + name
                    + "' is longer than maxWait " + config.maxWait() + " (LockConfig.maxWait)");
        }
        return observed(wait, null);
    }

    /** An acquisition, observed as {@code redkit.lock.acquire} (its duration is the wait) when observations are on. */
    private Optional<Lease> observed(Duration wait, LeaseBounds bounds) {
        ObservedOperation acquisitions = meters.acquisitions();
        if (!acquisitions.active()) {
            return wait.isZero() ? tryOnce(bounds) : waitFor(wait);
        }
        return acquisitions.observe(o -> {
            o.highCardinalityKeyValue("lock", name).highCardinalityKeyValue("wait", wait.toString());
            return wait.isZero() ? tryOnce(bounds) : waitFor(wait);
        }, lease -> lease.isPresent() ? ACQUIRED : BUSY);
    }

    private Optional<Lease> waitFor(Duration wait) {
        long deadline = runtime.clock().nanoTime() + wait.toNanos();
        boolean wake = config.wakeOnRelease() && signals.ensureSubscribed();
        Backoff backoff = new Backoff(config.backoffMin().toNanos(), config.backoffMax().toNanos());
        while (true) {
            // Registered before the attempt, so that a release between the attempt and the wait still wakes us.
            CompletableFuture<Void> signal = wake ? signals.register(key) : new CompletableFuture<>();
            try {
                long left = deadline - runtime.clock().nanoTime();
                Attempt attempt = attempt(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)), null);
                if (attempt.lease != null) {
                    return Optional.of(attempt.lease);
                }
                left = deadline - runtime.clock().nanoTime();
                if (left <= 0) {
                    meters.busy();
                    return Optional.empty();
                }
                long pause = Math.min(backoff.nextNanos(), left);
                if (attempt.holderTtlMillis > 0) {
                    pause = Math.min(pause, TimeUnit.MILLISECONDS.toNanos(attempt.holderTtlMillis + 1));
                }
                awaitSignal(signal, pause);
            } finally {
                if (wake) {
                    signals.forget(key, signal);
                }
            }
        }
    }

    @Override
    public Lease acquire() {
        return tryAcquire(config.maxWait()).orElseThrow(() -> new LockBusyException(name, config.maxWait()));
    }

    @Override
    public <T> T runLocked(Duration wait, LockedWork<T> work) throws Exception {
        Objects.requireNonNull(work, "work");
        Lease lease = tryAcquire(wait).orElseThrow(() -> new LockBusyException(name, wait));
        return LockedRun.run((DefaultLease) lease, work);
    }

    /** One attempt; {@code bounds} null for a lease of the configured TTL under the watchdog. */
    private Attempt attempt(long waitMillis, LeaseBounds bounds) {
        if (!runtime.replicas().active()) {
            return attempt(runtime.commands(), null, waitMillis, bounds); // the hot path: shared connection, no WAIT
        }
        // WAIT counts only its own connection's writes and blocks it: the script and its WAIT go on one of our own.
        try (DedicatedConnection connection = runtime.replicas().connection()) {
            return attempt(connection.ops(), connection, waitMillis, bounds);
        }
    }

    private Attempt attempt(RedisOps redis, DedicatedConnection confirming, long waitMillis, LeaseBounds bounds) {
        String owner = OwnerTokens.next();
        long startedAt = runtime.clock().nanoTime();
        Taken taken = take(redis, owner, waitMillis, bounds != null ? bounds.atMost() : config.ttl());
        if (!taken.acquired()) {
            return new Attempt(null, taken.value());
        }
        if (confirming != null) {
            confirmReplicated(confirming, owner);
        }
        if (fencing.mode() == Fencing.Mode.EXTERNAL) {
            return drawAndConfirm(owner, startedAt, bounds);
        }
        return leased(owner, fencing.mode() == Fencing.Mode.REDIS_COUNTER, taken.value(), startedAt, bounds);
    }

    /** The acquire script: taken with its fencing token (0 without), or busy with the holder's remaining TTL. */
    private Taken take(RedisOps redis, String owner, long waitMillis, Duration ttlOfLease) {
        byte[] ttl = ttlOfLease.equals(config.ttl()) ? configuredTtl : bytes(Long.toString(ttlOfLease.toMillis()));
        byte[] wait = waitMillis == 0 ? NO_WAIT : bytes(Long.toString(waitMillis));
        byte[] ownerBytes = bytes(owner);
        try {
            if (fencing.mode() == Fencing.Mode.REDIS_COUNTER) {
                List<Object> reply = redis.eval(LockScripts.FENCED_ACQUIRE, acquireKeys, ownerBytes, ttl, wait,
                        bytes(Long.toString(config.fenceRetention().toMillis())));
                return new Taken((Long) reply.get(0) == 1, (Long) reply.get(1));
            }
            long reply = redis.eval(LockScripts.ACQUIRE, acquireKeys, ownerBytes, ttl, wait);
            return reply == 0 ? new Taken(true, 0) : new Taken(false, reply);
        } catch (RedkitException e) {
            if (e.outcome() == Outcome.UNKNOWN) {
                // The SET may have run: give back what may be ours instead of blocking others for a whole TTL. On
                // the connection the SET went out on, when it is one of our own: a release sent on another could
                // overtake the late SET, find nothing, and leave the lock held for its whole TTL.
                if (redis == runtime.commands()) {
                    giveBack(owner);
                } else {
                    giveBackNow(redis, owner);
                }
            }
            throw e;
        }
    }

    /*
     * The master has the lock; a lease is given only once the replicas have it too, or a failover before they
     * did could promote one without it and hand the lock to a second holder (the seeds' warning). Unconfirmed, it
     * is given back at once on the same connection, so no one waits a whole TTL for a lock nobody holds, and the
     * caller is told why rather than "busy". The fence counter was incremented in the same script, so a confirmed
     * acquisition's token survives the failover too.
     */
    private void confirmReplicated(DedicatedConnection connection, String owner) {
        ReplicaConfirmation.Confirmation confirmation = runtime.replicas().confirm(connection, key, bytes(owner),
                LockMetrics.ReplicaOp.ACQUIRE, LockMetrics.RefusalCause.WAIT_FAILED, meters);
        switch (confirmation.outcome()) {
            case YES -> {
                return;
            }
            case TOO_FEW_REPLICAS -> {
                giveBackNow(connection.ops(), owner);
                throw new LockNotReplicatedException(name, confirmation.ack().required(),
                        confirmation.ack().acknowledged(), runtime.replicas().timeout());
            }
            case SLOT_MOVED -> {
                // Redirected: the lock is on another node, which no WAIT asked. Given back there (the shared
                // connection follows the redirect), and refused.
                giveBackNow(runtime.commands(), owner);
                throw new LockNotReplicatedException(name, runtime.replicas().timeout(), new RedisUnavailableException(
                        "the slot of '" + key + "' moved while the lock was taken (MOVED/ASK): the replicas that"
                                + " confirmed were not those of the node that took it", Outcome.NOT_EXECUTED, null));
            }
            default -> {
                // The wait or the read-back failed. The connection may be blocked in its WAIT; the SET has answered,
                // so the shared connection's release comes after it. Released before the caller hears.
                giveBackNow(runtime.commands(), owner);
                throw new LockNotReplicatedException(name, runtime.replicas().timeout(), confirmation.failure());
            }
        }
    }

    /*
     * An external token is drawn after the SET and kept only if the lock is still ours afterwards. A later holder
     * can only acquire after that check, and so draws after us: tokens follow acquisition order. A holder that
     * stalled between its SET and its draw past the TTL fails the check; its token is never used.
     */
    private Attempt drawAndConfirm(String owner, long startedAt, LeaseBounds bounds) {
        long token;
        try {
            token = fencing.source().orElseThrow().next(name);
        } catch (RuntimeException e) {
            giveBackNow(runtime.commands(), owner); // Redis answered a moment ago: a failed acquire leaves nothing
            throw e;
        }
        long confirmed;
        try {
            confirmed = runtime.commands().eval(LockScripts.CONFIRM, List.of(key), owner);
        } catch (RedkitException e) {
            giveBack(owner); // the SET ran: whatever the check did, the lock may be ours
            throw e;
        }
        if (confirmed == 1) {
            return leased(owner, true, token, startedAt, bounds);
        }
        return new Attempt(null, 0); // expired before the check: not acquired; a waiter tries again
    }

    private void giveBackNow(RedisOps redis, String owner) {
        try {
            redis.eval(LockScripts.RELEASE, List.of(key, acquireKeys.get(1)), bytes(owner),
                    bytes(runtime.releaseChannel()));
        } catch (RedkitException e) {
            giveBack(owner); // the key expires by its TTL at the latest
        }
    }

    private void giveBack(String owner) {
        runtime.commands().evalAsync(LockScripts.RELEASE, List.of(key, acquireKeys.get(1)), bytes(owner),
                bytes(runtime.releaseChannel()));
    }

    /*
     * A lease is valid from acquired-at (before the request left) for ttl − drift. An acquisition whose reply came
     * after that is not one: handing out a lease already invalid would make isValid() false from its first
     * call while Redis may still hold the key. Give it back and report busy.
     */
    private Attempt leased(String owner, boolean fenced, long token, long startedAt, LeaseBounds bounds) {
        long validity = bounds != null ? bounds.atMost().toNanos() - bounds.clockDrift().toNanos()
                : config.ttl().toNanos() - config.clockDrift().toNanos();
        if (startedAt + validity - runtime.clock().nanoTime() <= 0) {
            giveBack(owner);
            return new Attempt(null, 0);
        }
        return new Attempt(newLease(owner, fenced, token, startedAt, bounds), 0);
    }

    private DefaultLease newLease(String owner, boolean fenced, long token, long startedAt, LeaseBounds bounds) {
        meters.acquired();
        DefaultLease lease = new DefaultLease(runtime, meters, name, key, acquireKeys.get(1), owner, fenced, token,
                startedAt, bounds);
        lease.start();
        return lease;
    }

    private static void awaitSignal(CompletableFuture<Void> signal, long nanos) {
        try {
            signal.get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // the backoff ran out first: try again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedkitException("interrupted while waiting for a lock; not acquired", Outcome.NOT_EXECUTED, e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Lock[" + name + ", " + key + ", " + fencing + "]";
    }

    /** What the acquire script answered: taken (with the fencing token, 0 without) or busy (the holder's TTL). */
    private record Taken(boolean acquired, long value) {
    }

    /** The outcome of one attempt: a lease, or the holder's remaining TTL. */
    private record Attempt(DefaultLease lease, long holderTtlMillis) {
    }
}
