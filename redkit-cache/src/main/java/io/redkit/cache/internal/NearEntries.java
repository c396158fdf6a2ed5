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
 * <p>Every invalidation takes a number and records it on its keys' stripe (by hash); a flush records it for all.
 * A reader takes the current number as its mark before it reads Redis, and its answer is kept with that mark. An
 * entry is served only while nothing was invalidated on its stripe, and nothing flushed, after its mark: the check
 * is made when it is read, so no interleaving of a put with an invalidation's removal can leave an older value
 * visible once the invalidation has been handled. A stripe shared with another key only costs a miss.
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

    /** The kept answer for {@code key}, or a miss when absent or invalidated since it was read. */
    final Lookup<V> lookup(String key) {
        Kept<V> kept = entries.getIfPresent(key);
        return kept == null || stale(key, kept.mark()) ? Lookup.miss() : Lookup.of(kept.answer());
    }

    /** Keeps {@code answer}, read after {@code mark} was taken, unless it is already known to be stale. */
    final void keep(String key, Optional<V> answer, long mark) {
        if (!stale(key, mark)) {
            entries.put(key, new Kept<>(mark, answer));
        }
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
