package io.redkit.lock.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.redkit.ObservedOperation;
import io.redkit.lock.LossReason;

/**
 * The lock meters: {@code redkit.lock.acquired}, {@code .busy}, {@code .lost} (by reason), {@code .released.late},
 * the {@code .hold} timer, and the replicas' confirmations: {@code .replicas.confirmed} and {@code .replicas.refused}
 * (by {@code op}, acquire or extend, and {@code cause}) and the {@code .replicas.wait} timer; tagged with the client
 * and namespace, and with the lock name only when asked.
 */
final class LockMetrics {

    private final MeterRegistry registry;
    private final Tags base;
    private final boolean tagNames;
    private final Map<String, Meters> byName = new ConcurrentHashMap<>();
    private final ObservedOperation acquisitions;

    LockMetrics(MeterRegistry registry, String client, String namespace, boolean tagNames,
            ObservedOperation acquisitions) {
        this.registry = registry;
        this.acquisitions = acquisitions;
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
        private final Map<String, Counter> replicaCounters = new ConcurrentHashMap<>();
        private final Map<ReplicaOp, Timer> replicaWaits = new ConcurrentHashMap<>();

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

        /** The observation of acquisitions, {@code redkit.lock.acquire}. */
        ObservedOperation acquisitions() {
            return acquisitions;
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

        /** The replicas confirmed an acquisition or extension after {@code nanos} of waiting. */
        void replicasConfirmed(ReplicaOp op, long nanos) {
            replicaWait(op, nanos);
            replicaCounter("redkit.lock.replicas.confirmed", op, null,
                    "acquisitions and extensions the replicas confirmed in time").increment();
        }

        /**
         * An acquisition or extension that did not count: too few replicas confirmed it in time (after {@code
         * nanos} of waiting), or the wait failed ({@code nanos} negative: nothing to time).
         */
        void replicasRefused(ReplicaOp op, RefusalCause cause, long nanos) {
            if (nanos >= 0) {
                replicaWait(op, nanos);
            }
            replicaCounter("redkit.lock.replicas.refused", op, cause,
                    "acquisitions refused and extensions not counted: the replicas did not confirm").increment();
        }

        private void replicaWait(ReplicaOp op, long nanos) {
            replicaWaits.computeIfAbsent(op, o -> Timer.builder("redkit.lock.replicas.wait")
                    .description("how long the replicas took to confirm (or the timeout, when they did not)")
                    .tags(tags.and("op", o.tag())).register(registry)).record(nanos, TimeUnit.NANOSECONDS);
        }

        private Counter replicaCounter(String meter, ReplicaOp op, RefusalCause cause, String description) {
            String id = meter + "/" + op + "/" + cause;
            return replicaCounters.computeIfAbsent(id, i -> {
                Tags t = tags.and("op", op.tag());
                return Counter.builder(meter).description(description)
                        .tags(cause == null ? t : t.and("cause", cause.tag())).register(registry);
            });
        }

        void lost(LossReason reason) {
            lost.computeIfAbsent(reason, r -> Counter.builder("redkit.lock.lost")
                    .description("leases lost: the holder learned the lock was no longer its own")
                    .tags(tags.and("reason", r.name())).register(registry)).increment();
        }
    }

    /** What the replicas were asked to confirm. */
    enum ReplicaOp {
        ACQUIRE, EXTEND;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Why an acquisition or extension did not count. */
    enum RefusalCause {
        /** Fewer replicas than required confirmed within the timeout. */
        TOO_FEW_REPLICAS,
        /** The wait itself failed (timed out on the client, connection lost, pool exhausted). */
        WAIT_FAILED,
        /** On Cluster, the write was redirected (the slot moved or is being migrated): the wait asked another node. */
        SLOT_MOVED;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
