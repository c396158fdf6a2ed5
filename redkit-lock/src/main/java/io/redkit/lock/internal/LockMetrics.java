package io.redkit.lock.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.redkit.lock.LossReason;

/**
 * The lock meters: {@code redkit.lock.acquired}, {@code .busy}, {@code .lost} (by reason), {@code .released.late}
 * and the {@code .hold} timer, tagged with the client and namespace, and with the lock name only when asked.
 */
final class LockMetrics {

    private final MeterRegistry registry;
    private final Tags base;
    private final boolean tagNames;
    private final Map<String, Meters> byName = new ConcurrentHashMap<>();

    LockMetrics(MeterRegistry registry, String client, String namespace, boolean tagNames) {
        this.registry = registry;
        this.base = Tags.of("client", client, "namespace", namespace);
        this.tagNames = tagNames;
    }

    Meters forLock(String name) {
        return byName.computeIfAbsent(tagNames ? name : "", n -> new Meters(tagNames ? base.and("lock", n) : base));
    }

    /** The meters of one lock (or of all, when names are not tags). */
    final class Meters {
        private final Tags tags;
        private final Counter acquired;
        private final Counter busy;
        private final Counter releasedLate;
        private final Timer hold;
        private final Map<LossReason, Counter> lost = new ConcurrentHashMap<>();

        private Meters(Tags tags) {
            this.tags = tags;
            this.acquired = Counter.builder("redkit.lock.acquired").description("leases acquired")
                    .tags(tags).register(registry);
            this.busy = Counter.builder("redkit.lock.busy")
                    .description("acquisitions that found the lock held and gave up (after their wait)")
                    .tags(tags).register(registry);
            this.releasedLate = Counter.builder("redkit.lock.released.late")
                    .description("releases after the lease's local validity had run out").tags(tags)
                    .register(registry);
            this.hold = Timer.builder("redkit.lock.hold").description("time from acquisition to release")
                    .tags(tags).register(registry);
        }

        void acquired() {
            acquired.increment();
        }

        void busy() {
            busy.increment();
        }

        void releasedLate() {
            releasedLate.increment();
        }

        void held(Duration duration) {
            hold.record(duration);
        }

        void lost(LossReason reason) {
            lost.computeIfAbsent(reason, r -> Counter.builder("redkit.lock.lost")
                    .description("leases lost: the holder learned the lock was no longer its own")
                    .tags(tags.and("reason", r.name())).register(registry)).increment();
        }
    }
}
