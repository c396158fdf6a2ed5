package io.redkit.cache.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.redkit.cache.CacheStats;

/**
 * The meters of one cache, tagged {@code cache=<name>} and {@code client=<redkit name>}: {@code redkit.cache.hits},
 * {@code .misses}, {@code .near.hits}, {@code .loads}, {@code .load.time}, {@code .errors{kind=redis|decode|version|wrongtype}},
 * {@code .early.refreshes}, {@code .stale.fills.prevented}, {@code .fill.waits}, {@code .large{action}},
 * {@code .invalidations.retried}, {@code .invalidations.given.up} (should stay 0), {@code .invalidations.unconfirmed},
 * {@code .invalidations.overflowed}, {@code .near.invalidations}, {@code .near.resets},
 * the timer {@code .invalidation.pending.time} (how long each key stayed pending: its max is the longest), and the
 * gauges {@code .breaker.state} (0 closed, 1 half-open, 2 open), {@code .invalidations.pending} and {@code .near.size}.
 */
final class CacheMetrics implements AutoCloseable {

    private final MeterRegistry registry;
    private final Tags tags;
    private final List<Meter> registered = new ArrayList<>();
    private final Counter hits;
    private final Counter misses;
    private final Counter nearHits;
    private final Counter loads;
    private final Timer loadTime;
    private final Counter redisErrors;
    private final Counter wrongType;
    private final Counter decodeErrors;
    private final Counter otherVersion;
    private final Counter earlyRefreshes;
    private final Counter staleFills;
    private final Counter fillWaits;
    private final Counter compressed;
    private final Counter skipped;
    private final Counter refused;
    private final Counter invalidationsRetried;
    private final Counter invalidationsGivenUp;
    private final Counter invalidationsUnconfirmed;
    private final Counter invalidationsOverflowed;
    private final Timer invalidationPendingTime;

    CacheMetrics(MeterRegistry registry, String client, String cache) {
        this.registry = registry;
        this.tags = Tags.of("client", client, "cache", cache);
        if (registry.find("redkit.cache.hits").tags(tags).counter() != null) {
            // Two open caches of one name would count into the same meters, and each stats() would lie.
            throw new IllegalStateException("a cache named '" + cache + "' is already open on redkit '" + client
                    + "': close it first, or give this one another name (or its Redkit another name)");
        }
        this.hits = counter("redkit.cache.hits", "reads answered by Redis", Tags.empty());
        this.misses = counter("redkit.cache.misses", "reads Redis did not answer", Tags.empty());
        this.nearHits = counter("redkit.cache.near.hits", "reads answered by the near cache", Tags.empty());
        this.loads = counter("redkit.cache.loads", "calls of the loader (a batch counts once)", Tags.empty());
        this.loadTime = keep(Timer.builder("redkit.cache.load.time").description("time in the loader").tags(tags)
                .register(registry));
        // One description a name: Prometheus prints one HELP line for all of a name's tags (the first registered).
        String errors = "redkit.cache.errors";
        String errorKinds = "reads that Redis did not answer usefully, by kind: redis (an error or timeout, served by"
                + " the loader), wrongtype (a key of another type, overwritten by the fill), decode (an entry that did"
                + " not decode, reloaded), version (an entry of another schema version, reloaded)";
        this.redisErrors = counter(errors, errorKinds, Tags.of("kind", "redis"));
        this.wrongType = counter(errors, errorKinds, Tags.of("kind", "wrongtype"));
        this.decodeErrors = counter(errors, errorKinds, Tags.of("kind", "decode"));
        this.otherVersion = counter(errors, errorKinds, Tags.of("kind", "version"));
        this.earlyRefreshes = counter("redkit.cache.early.refreshes", "XFetch refreshes before expiry", Tags.empty());
        this.staleFills = counter("redkit.cache.stale.fills.prevented",
                "write-backs refused because the key was invalidated during the load", Tags.empty());
        this.fillWaits = counter("redkit.cache.fill.waits", "misses that waited for another instance's load",
                Tags.empty());
        String large = "redkit.cache.large";
        String largeActions = "large values, by action: compressed, skipped (above the limit, served but not cached),"
                + " refused (above the limit, ValueTooLargeException)";
        this.compressed = counter(large, largeActions, Tags.of("action", "compressed"));
        this.skipped = counter(large, largeActions, Tags.of("action", "skipped"));
        this.refused = counter(large, largeActions, Tags.of("action", "refused"));
        this.invalidationsRetried = counter("redkit.cache.invalidations.retried",
                "keys whose unconfirmed invalidation was sent again", Tags.empty());
        this.invalidationsGivenUp = counter("redkit.cache.invalidations.given.up",
                "unconfirmed invalidations dropped at close, their entries possibly stale until their TTL", Tags.empty());
        this.invalidationsUnconfirmed = counter("redkit.cache.invalidations.unconfirmed",
                "keys whose UNLINK the replicas did not confirm in time (kept pending, sent again)", Tags.empty());
        this.invalidationsOverflowed = counter("redkit.cache.invalidations.overflowed",
                "times too many invalidations were pending and the whole cache was read from the source", Tags.empty());
        this.invalidationPendingTime = keep(Timer.builder("redkit.cache.invalidation.pending.time")
                .description("how long a key's invalidation stayed unconfirmed").tags(tags).register(registry));
    }

    private Counter counter(String name, String description, Tags extra) {
        return keep(Counter.builder(name).description(description).tags(tags.and(extra)).register(registry));
    }

    private <M extends Meter> M keep(M meter) {
        registered.add(meter);
        return meter;
    }

    void breakerGauge(Supplier<Number> state) {
        keep(Gauge.builder("redkit.cache.breaker.state", state).description("0 closed, 1 half-open, 2 open")
                .tags(tags).register(registry));
    }

    /** The near cache's size and what reached it from elsewhere; without a near cache they stay 0. */
    void nearMeters(Supplier<Number> size, Supplier<Number> invalidations, Supplier<Number> resets) {
        keep(Gauge.builder("redkit.cache.near.size", size).description("entries in the near cache").tags(tags)
                .register(registry));
        keep(FunctionCounter.builder("redkit.cache.near.invalidations", invalidations, n -> n.get().doubleValue())
                .description("keys invalidated in the near cache by the server or by other instances").tags(tags)
                .register(registry));
        keep(FunctionCounter.builder("redkit.cache.near.resets", resets, n -> n.get().doubleValue())
                .description("times the near cache was emptied (a drop, a flush, a gap, tracking turned on again)")
                .tags(tags).register(registry));
    }

    void pendingGauge(Supplier<Number> pending) {
        keep(Gauge.builder("redkit.cache.invalidations.pending", pending)
                .description("keys (or 1 for the whole cache) whose invalidation is not confirmed yet").tags(tags)
                .register(registry));
    }

    void invalidationRetried(int keys) { invalidationsRetried.increment(keys); }

    void invalidationsGivenUp(int keys) { invalidationsGivenUp.increment(keys); }

    void invalidationsUnconfirmed(int keys) { invalidationsUnconfirmed.increment(keys); }

    void invalidationsOverflowed() { invalidationsOverflowed.increment(); }

    void invalidationSettled(long pendingNanos) {
        invalidationPendingTime.record(pendingNanos, TimeUnit.NANOSECONDS);
    }

    /** Removes this cache's meters, so that a cache of the same name may be opened again. */
    @Override
    public void close() {
        registered.forEach(registry::remove);
    }

    void hit() { hits.increment(); }

    void miss() { misses.increment(); }

    void nearHit() { nearHits.increment(); }

    void load(long nanos) {
        loads.increment();
        loadTime.record(nanos, TimeUnit.NANOSECONDS);
    }

    void redisError() { redisErrors.increment(); }

    void decodeError() { decodeErrors.increment(); }

    void wrongType() { wrongType.increment(); }

    void otherVersion() { otherVersion.increment(); }

    void earlyRefresh() { earlyRefreshes.increment(); }

    void staleFillPrevented() { staleFills.increment(); }

    void fillWait() { fillWaits.increment(); }

    void compressed() { compressed.increment(); }

    void skipped() { skipped.increment(); }

    void refused() { refused.increment(); }

    CacheStats snapshot() {
        return new CacheStats((long) hits.count(), (long) misses.count(), (long) nearHits.count(),
                (long) loads.count(), (long) redisErrors.count(), (long) earlyRefreshes.count(),
                (long) staleFills.count(), (long) fillWaits.count());
    }
}
