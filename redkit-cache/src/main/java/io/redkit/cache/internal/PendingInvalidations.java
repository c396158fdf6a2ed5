package io.redkit.cache.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

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

    /**
     * A pending key: when it first became pending (monotonic nanos), the number of its latest invalidation, and
     * whether that awaits only its replicas' confirmation (its UNLINK was taken: not a retry yet). A retry settles
     * the key only if no invalidation of it came after the one it sent, so a second commit's invalidation that
     * lands while the first is being confirmed is never dropped with it.
     */
    private record Pending(long since, long number, boolean awaitingReplicas) {
    }

    private final String cache;
    private final Retry retry;
    private final RedkitClock clock;
    private final CacheMetrics metrics;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    // Numbers every invalidation remembered here, and every time the whole cache must be invalidated.
    private final AtomicLong numbers = new AtomicLong();
    private final Thread thread;
    private volatile boolean wholeCache;
    private volatile long wholeCacheSince;
    private volatile long wholeCacheNumber;
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

    private void remember(Collection<String> entryKeys, boolean awaitingReplicas) {
        long now = clock.nanoTime();
        for (String key : entryKeys) {
            if (pending.size() >= BOUND && !pending.containsKey(key)) {
                overflow(now);
                break;
            }
            long number = numbers.incrementAndGet();
            pending.merge(key, new Pending(now, number, awaitingReplicas),
                    (old, fresh) -> new Pending(old.since(), number, old.awaitingReplicas() && awaitingReplicas));
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

    /** The number of the latest invalidation remembered: taken before an invalidation of the whole cache starts. */
    long mark() {
        return numbers.get();
    }

    /**
     * An invalidation of the whole cache (a prefix invalidation without parts) that started at {@code mark} and
     * succeeded, confirmed, covers every key remembered before it.
     */
    void coveredWholeCache(long mark) {
        settleWholeCache(mark);
    }

    private void overflow(long now) {
        wholeCacheNumber = numbers.incrementAndGet();
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
            long mark = mark();
            metrics.invalidationRetried(1);
            if (!retry.unlinkAll()) {
                unconfirmedOnce(1);
                throw new Unconfirmed();
            }
            settleWholeCache(mark);
            return;
        }
        List<Map.Entry<String, Pending>> entries = new ArrayList<>(pending.size());
        pending.forEach((key, p) -> entries.add(Map.entry(key, p)));
        for (int from = 0; from < entries.size(); from += BATCH) {
            List<Map.Entry<String, Pending>> batch = entries.subList(from, Math.min(entries.size(), from + BATCH));
            List<String> keys = new ArrayList<>(batch.size());
            int retries = 0;
            for (Map.Entry<String, Pending> e : batch) {
                keys.add(e.getKey());
                retries += e.getValue().awaitingReplicas() ? 0 : 1;
            }
            if (retries > 0) {
                metrics.invalidationRetried(retries);
            }
            boolean confirmed;
            try {
                confirmed = retry.unlink(keys);
            } catch (RedkitException e) {
                countAsRetries(batch);
                throw e;
            }
            if (!confirmed) {
                countAsRetries(batch);
                unconfirmedOnce(batch.size());
                throw new Unconfirmed();
            }
            long now = clock.nanoTime();
            for (Map.Entry<String, Pending> e : batch) {
                // Only if nothing invalidated the key again meanwhile: that invalidation is not confirmed yet.
                if (pending.remove(e.getKey(), e.getValue())) {
                    metrics.invalidationSettled(now - e.getValue().since());
                }
            }
        }
        warnedUnconfirmed.set(false);
    }

    // Its next attempt is a retry: it was sent and not confirmed.
    private void countAsRetries(List<Map.Entry<String, Pending>> batch) {
        for (Map.Entry<String, Pending> e : batch) {
            pending.computeIfPresent(e.getKey(), (k, p) -> p.awaitingReplicas()
                    ? new Pending(p.since(), p.number(), false) : p);
        }
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

    /**
     * The whole cache was invalidated (and confirmed) by a run that started after invalidation number {@code mark}:
     * every key remembered up to it is settled, and the whole-cache rule ends unless it was set again since.
     */
    private void settleWholeCache(long mark) {
        long now = clock.nanoTime();
        pending.forEach((key, p) -> {
            if (p.number() <= mark && pending.remove(key, p)) {
                metrics.invalidationSettled(now - p.since());
            }
        });
        if (wholeCache && wholeCacheNumber <= mark) {
            wholeCache = false;
            metrics.invalidationSettled(now - wholeCacheSince);
            log.info("cache '{}': the whole cache was invalidated; reads use Redis again", cache);
        }
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
