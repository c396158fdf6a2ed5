package io.redkit.cache.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.InvalidationListener;
import io.redkit.Redkit;
import io.redkit.TrackedReads;

/**
 * The in-process copy of hot entries, invalidated by the server itself ({@code CLIENT TRACKING}): the cache reads
 * through {@link #reads()}, so every key it could keep is tracked, and any client's write, an expiry, an eviction or
 * a flush drops the copy as soon as the server's push arrives.
 *
 * <p>No gap. A read's reply can race the invalidation of the same key: the numbering of {@link NearEntries} keeps
 * such a reply out. While tracking is not confirmed on the current socket (from a drop until the
 * server has answered {@code CLIENT TRACKING ON} again), nothing is served from here and nothing kept; the drop and
 * the confirmation each empty the cache, so what was read before either is never kept.
 *
 * <p>A loaded value is not kept: the fill's own write makes the server invalidate the key and stop tracking it.
 */
final class TrackingNearCache<V> extends NearEntries<V> implements InvalidationListener {

    private static final Logger log = LoggerFactory.getLogger(TrackingNearCache.class);

    private final String name;
    private final TrackedReads reads;

    /**
     * Opens the tracked connection.
     *
     * @param prefixes empty: the server tracks each key read; otherwise broadcast mode for these prefixes
     * @throws io.redkit.TrackingRefusedException when the server refuses tracking
     */
    TrackingNearCache(Redkit redkit, String name, List<String> prefixes, long size, Duration ttl) {
        super(redkit, size, ttl);
        this.name = name;
        this.reads = redkit.trackedReads(prefixes, this);
    }

    /** Where the cache must read for what it reads to be kept here. */
    TrackedReads reads() {
        return reads;
    }

    @Override
    public Lookup<V> get(String key) {
        return reads.tracking() ? lookup(key) : Lookup.miss();
    }

    @Override
    public void put(String key, Optional<V> answer, long epochBefore) {
        if (reads.tracking()) {
            keep(key, answer, epochBefore);
        }
    }

    @Override
    public void putLoaded(String key, Optional<V> answer, long epochBefore) {
        // Not kept: see the class comment.
    }

    /** This instance's own write: dropped here; the server tells the other instances. */
    @Override
    public void invalidate(Collection<String> keys) {
        drop(keys);
    }

    @Override
    public void invalidateAll() {
        reset("invalidated by prefix");
    }

    @Override
    public void invalidated(List<String> keys) {
        dropReceived(keys);
    }

    @Override
    public void reset(String why) {
        empty();
        log.debug("near cache {} emptied: {}", name, why);
    }

    @Override
    public void close() {
        reads.close();
        clear();
    }
}
