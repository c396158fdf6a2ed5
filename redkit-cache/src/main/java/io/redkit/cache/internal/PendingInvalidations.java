package io.redkit.cache.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedkitClock;
import io.redkit.RedkitException;

/**
 * The invalidations of one cache that may not have happened: an UNLINK rejected while disconnected or timed out.
 * Without this, a committed update comes undone: Redis restarts from its AOF (or a replica is promoted) with the
 * old entry, and every read serves the old value again until its TTL. So each such key is kept here; a read of it
 * skips Redis (no hit, no fill) and loads from the source; and a thread of the cache's own retries the UNLINK
 * with a backoff (20 ms doubling to 500 ms) until it succeeds, after which every instance reads the new value.
 *
 * <p>Where the topology has replicas (Sentinel, Cluster), an UNLINK the master took is not yet safe either: the
 * master can fail over before its replicas have it, and the promoted replica serves the old entry. So there every
 * invalidation is kept here, its keys read from the source by this instance, until the thread has sent its UNLINK
 * again on a dedicated connection and the replicas the topology knows have confirmed it ({@code WAIT}); the caller
 * is not held up, and an unconfirmed one is retried like a failed one.
 *
 * <p>Bounded: past {@link #BOUND} keys the cache falls back to a rule as safe, reading every key from the source
 * until an invalidation of the whole cache (SCAN + UNLINK) has succeeded. Keys still pending when the cache is
 * closed are given up, counted and logged: nothing else would retry them.
 */
final class PendingInvalidations implements AutoCloseable {

    /** The most keys remembered one by one; past it, the whole cache is invalidated instead. */
    static final int BOUND = 10_000;

    private static final Logger log = LoggerFactory.getLogger(PendingInvalidations.class);
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final int BATCH = 500;

    /** How a retry reaches Redis: the cache's UNLINK of entries (and their leases), and of the whole cache. */
    interface Retry {
        /**
         * UNLINKs these entries and their fill leases and waits for the replicas to have it; false when they did
         * not confirm in time (tried again), throws when Redis could not be told.
         */
        boolean unlink(List<String> entryKeys);

        /**
         * Invalidates every entry of the cache, with its replicas' confirmation where the topology has replicas;
         * false when they did not confirm it all in time (tried again), throws when Redis could not be told.
         */
        boolean unlinkAll();
    }

    private final String cache;
    private final Retry retry;
    private final RedkitClock clock;
    private final CacheMetrics metrics;
    // Entry key → when it became pending (monotonic nanos).
    private final Map<String, Long> pending = new ConcurrentHashMap<>();
    // Keys whose UNLINK Redis took and that await only their replicas' confirmation: not yet retries.
    private final Set<String> confirming = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean wholeCache;
    private volatile long wholeCacheSince;
    private volatile boolean closed;
    // Logged once per run of unconfirmed attempts, not once per attempt.
    private final AtomicBoolean warnedUnconfirmed = new AtomicBoolean();

    PendingInvalidations(String cache, Retry retry, RedkitClock clock, CacheMetrics metrics) {
        this.cache = cache;
        this.retry = retry;
        this.clock = clock;
        this.metrics = metrics;
        metrics.pendingGauge(() -> pending.size() + (wholeCache ? 1 : 0));
        this.thread = new Thread(this::run, "redkit-cache-invalidations-" + cache);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Whether a read of {@code entryKey} must skip Redis: it, or the whole cache, awaits an invalidation. */
    boolean bypass(String entryKey) {
        return wholeCache || (!pending.isEmpty() && pending.containsKey(entryKey));
    }

    /** Remembers keys whose invalidation may not have happened, and wakes the retry. */
    void add(Collection<String> entryKeys, RedkitException why) {
        remember(entryKeys, false);
        log.warn("cache '{}': invalidation of {} key(s) not confirmed ({}); this instance reads them from the source"
                + " and retries the UNLINK until Redis takes it", cache, entryKeys.size(), why.toString());
    }

    /** Keys whose UNLINK the master took, to be kept until its replicas confirm it (topologies with replicas). */
    void awaitConfirmation(Collection<String> entryKeys) {
        remember(entryKeys, true);
    }

    /**
     * Keys whose UNLINK the master took but the replicas did not confirm in time (a prefix invalidation's page):
     * kept and retried like a failed invalidation.
     */
    void unconfirmed(Collection<String> entryKeys) {
        if (!entryKeys.isEmpty()) {
            remember(entryKeys, false);
            unconfirmedOnce(entryKeys.size());
        }
    }

    // A key awaiting its replicas is not yet a retry (not counted as one) unless it already was.
    private void remember(Collection<String> entryKeys, boolean awaitingReplicas) {
        long now = clock.nanoTime();
        for (String key : entryKeys) {
            if (pending.size() >= BOUND && !pending.containsKey(key)) {
                overflow(now);
                break;
            }
            boolean added = pending.putIfAbsent(key, now) == null;
            if (!awaitingReplicas) {
                confirming.remove(key);
            } else if (added) {
                confirming.add(key);
            }
        }
        wake();
    }

    /** An invalidation of the whole cache (by prefix) that may not have happened. */
    void addWholeCache(RedkitException why) {
        overflow(clock.nanoTime());
        log.warn("cache '{}': invalidation by prefix not confirmed ({}); every key is read from the source until an"
                + " invalidation of the whole cache succeeds", cache, why.toString());
        wake();
    }

    /** A prefix invalidation that succeeded covers every key it matched; the whole cache when no parts. */
    void coveredWholeCache() {
        if (wholeCache) {
            settledWholeCache();
        }
    }

    private void overflow(long now) {
        if (!wholeCache) {
            wholeCacheSince = now;
            wholeCache = true;
            metrics.invalidationsOverflowed();
            log.warn("cache '{}': more than {} invalidations pending; the whole cache is read from the source until"
                    + " it has been invalidated as a whole", cache, BOUND);
        }
    }

    private synchronized void wake() {
        notifyAll();
    }

    private void run() {
        long pause = FIRST_PAUSE_NANOS;
        while (!closed) {
            if (!wholeCache && pending.isEmpty()) {
                pause = FIRST_PAUSE_NANOS;
                awaitWork();
                continue;
            }
            try {
                retryOnce();
                pause = FIRST_PAUSE_NANOS;
            } catch (RedkitException | Unconfirmed e) {
                await(pause);
                pause = Math.min(MAX_PAUSE_NANOS, pause * 2);
            } catch (RuntimeException e) {
                log.error("cache '{}': retrying invalidations failed unexpectedly; trying again", cache, e);
                await(MAX_PAUSE_NANOS);
            }
        }
    }

    private void retryOnce() {
        if (wholeCache) {
            metrics.invalidationRetried(1);
            if (!retry.unlinkAll()) {
                unconfirmedOnce(1);
                throw new Unconfirmed();
            }
            settledWholeCache();
            return;
        }
        List<String> keys = new ArrayList<>(pending.keySet());
        for (int from = 0; from < keys.size(); from += BATCH) {
            List<String> batch = keys.subList(from, Math.min(keys.size(), from + BATCH));
            int retries = 0;
            for (String key : batch) {
                retries += confirming.contains(key) ? 0 : 1;
            }
            if (retries > 0) {
                metrics.invalidationRetried(retries);
            }
            boolean confirmed;
            try {
                confirmed = retry.unlink(batch);
            } catch (RedkitException e) {
                batch.forEach(confirming::remove);
                throw e;
            }
            if (!confirmed) {
                batch.forEach(confirming::remove);
                unconfirmedOnce(batch.size());
                throw new Unconfirmed();
            }
            long now = clock.nanoTime();
            for (String key : batch) {
                confirming.remove(key);
                Long since = pending.remove(key);
                if (since != null) {
                    metrics.invalidationSettled(now - since);
                }
            }
        }
        warnedUnconfirmed.set(false);
    }

    private void unconfirmedOnce(int keys) {
        metrics.invalidationsUnconfirmed(keys);
        if (warnedUnconfirmed.compareAndSet(false, true)) {
            log.warn("cache '{}': the replicas did not confirm the invalidation of {} key(s) within {} ms; this"
                    + " instance reads them from the source and sends the UNLINK again until they do", cache, keys,
                    Invalidator.REPLICA_WAIT.toMillis());
        }
    }

    /** The replicas did not confirm a retried UNLINK in time: backed off and sent again, like a failure. */
    private static final class Unconfirmed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unconfirmed() {
            super(null, null, false, false);
        }
    }

    private void settledWholeCache() {
        long now = clock.nanoTime();
        wholeCache = false;
        metrics.invalidationSettled(now - wholeCacheSince);
        // The whole cache is gone from Redis: every key pending one by one with it.
        pending.keySet().forEach(key -> {
            Long since = pending.remove(key);
            if (since != null) {
                metrics.invalidationSettled(now - since);
            }
        });
        log.info("cache '{}': the whole cache was invalidated; reads use Redis again", cache);
    }

    /** Waits for a key to retry; checked under the lock that add's wake takes, so no wake is missed. */
    private synchronized void awaitWork() {
        try {
            while (!closed && !wholeCache && pending.isEmpty()) {
                wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    private synchronized void await(long nanos) {
        if (closed) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.timedWait(this, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    /** Stops the retry; what is still pending is given up (counted, and logged once). */
    @Override
    public void close() {
        closed = true;
        wake();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int left = pending.size() + (wholeCache ? 1 : 0);
        if (left > 0) {
            metrics.invalidationsGivenUp(left);
            log.warn("cache '{}': closed with {} invalidation(s) still unconfirmed; their entries may be served until"
                    + " their TTL", cache, left);
        }
    }
}
