package io.redkit.cache.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

import io.redkit.Redkit;

/**
 * What every near cache keeps, whichever way it hears of stale copies: the entries (Caffeine: size bound, short TTL
 * on the client's clock, so a test moves one clock for everything), the numbering that keeps a raced reply out, and
 * the counts its meters read.
 *
 * <p>Every invalidation takes a number and records it on its keys' stripe (by hash) before it removes them; a
 * flush records it for all. A reader takes the current number as its mark before it reads Redis. Its answer is put
 * only if nothing on its stripe was invalidated, and nothing flushed, after the mark; the check and the put are one
 * atomic step on the key, and an invalidation's removal of that key waits for it, so an older value is never
 * visible once the invalidation has been handled (a put that checked and then inserted, in two steps, left it
 * visible for a moment after the removal). A flush cannot remove atomically what is being put while it runs, so
 * an entry also remembers its mark and is not served when a flush came after it. A stripe shared with another key
 * only costs a pending put, never an entry already kept.
 */
abstract class NearEntries<V> implements NearCache<V> {

    private static final int STRIPES = 1024; // a power of two

    private final Cache<String, Kept<V>> entries;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLongArray lastInvalidated = new AtomicLongArray(STRIPES);
    private final AtomicLong lastFlush = new AtomicLong();
    private final AtomicLong invalidations = new AtomicLong();
    private final AtomicLong flushes = new AtomicLong();

    private record Kept<V>(long mark, Optional<V> answer) {
    }

    NearEntries(Redkit redkit, long size, Duration ttl) {
        Ticker ticker = redkit.clock()::nanoTime;
        this.entries = Caffeine.newBuilder().maximumSize(size).expireAfterWrite(ttl).ticker(ticker).build();
    }

    @Override
    public final long epoch() {
        return events.get();
    }

    /** The kept answer for {@code key}, or a miss when absent or flushed since it was read. */
    final Lookup<V> lookup(String key) {
        Kept<V> kept = entries.getIfPresent(key);
        return kept == null || lastFlush.get() > kept.mark() ? Lookup.miss() : Lookup.of(kept.answer());
    }

    /** Keeps {@code answer}, read after {@code mark} was taken, unless it is already known to be stale. */
    final void keep(String key, Optional<V> answer, long mark) {
        entries.asMap().compute(key, (k, old) -> stale(k, mark) ? old : new Kept<>(mark, answer));
    }

    private boolean stale(String key, long mark) {
        return lastFlush.get() > mark || lastInvalidated.get(stripe(key)) > mark;
    }

    private static int stripe(String key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }

    /** Invalidates {@code keys}: numbered first (which is what makes copies stale), then removed. */
    final void drop(Collection<String> keys) {
        long event = events.incrementAndGet();
        for (String key : keys) {
            lastInvalidated.accumulateAndGet(stripe(key), event, Math::max);
        }
        entries.invalidateAll(keys);
    }

    /** {@link #drop} of keys that another instance or the server named. */
    final void dropReceived(Collection<String> keys) {
        invalidations.addAndGet(keys.size());
        drop(keys);
    }

    /** Invalidates everything and counts it as a flush. */
    final void empty() {
        lastFlush.accumulateAndGet(events.incrementAndGet(), Math::max);
        entries.invalidateAll();
        flushes.incrementAndGet();
    }

    /** Removes the entries without counting a flush (closing). */
    final void clear() {
        entries.invalidateAll();
    }

    @Override
    public final long flushes() {
        return flushes.get();
    }

    @Override
    public final long invalidationsReceived() {
        return invalidations.get();
    }

    @Override
    public final long size() {
        return entries.estimatedSize();
    }
}
