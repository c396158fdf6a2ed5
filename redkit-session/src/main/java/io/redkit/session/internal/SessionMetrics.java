package io.redkit.session.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of one session store, tagged {@code client=<redkit name>} and {@code store=<namespace>}:
 * {@code redkit.session.loads{result}} (hit, miss, invalid, expired, corrupt, newer), {@code .load.latency},
 * {@code .creations}, {@code .rotated}, {@code .revoked}, {@code .unavailable}, {@code .upgraded} (sessions moved
 * from a raw-id key to their digest key) and the gauge {@code .ready}
 * (1 ready, 0 not).
 */
final class SessionMetrics {

    /** How a load ended. */
    enum Load { HIT, MISS, INVALID, EXPIRED, CORRUPT, NEWER }

    private final MeterRegistry registry;
    private final Tags tags;
    private final Counter[] loads = new Counter[Load.values().length];
    private final Timer loadLatency;
    private final Counter created;
    private final Counter rotated;
    private final Counter revoked;
    private final Counter unavailable;
    private final Counter upgraded;

    SessionMetrics(MeterRegistry registry, String client, String store) {
        this.registry = registry;
        this.tags = Tags.of("client", client, "store", store);
        for (Load l : Load.values()) {
            loads[l.ordinal()] = Counter.builder("redkit.session.loads")
                    .description("session loads by result: hit, miss, invalid (not an id, Redis not asked),"
                            + " expired (absolute lifetime), corrupt (ended), newer (left to a newer release)")
                    .tags(tags.and("result", l.name().toLowerCase(java.util.Locale.ROOT))).register(registry);
        }
        this.loadLatency = Timer.builder("redkit.session.load.latency")
                .description("time of a session load, round trip and decode").tags(tags).register(registry);
        // Not redkit.session.created: Prometheus drops a name's .created suffix (reserved for a counter's creation
        // time), so that name was exported as redkit_session_total.
        this.created = counter("redkit.session.creations", "sessions created");
        this.rotated = counter("redkit.session.rotated", "sessions moved to a fresh id");
        this.revoked = counter("redkit.session.revoked", "sessions ended by revoke or revoke-all");
        this.unavailable = counter("redkit.session.unavailable",
                "operations failed closed because Redis did not answer");
        this.upgraded = counter("redkit.session.upgraded",
                "sessions of an earlier release moved from their raw-id key to their digest key");
    }

    private Counter counter(String name, String description) {
        return Counter.builder(name).description(description).tags(tags).register(registry);
    }

    void readyGauge(Supplier<Number> ready) {
        Gauge.builder("redkit.session.ready", ready).description("1 when sessions can be served, 0 when not")
                .tags(tags).register(registry);
    }

    void load(Load result, long nanos) {
        loads[result.ordinal()].increment();
        loadLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    void invalid() {
        loads[Load.INVALID.ordinal()].increment();
    }

    void created() { created.increment(); }

    void rotated() { rotated.increment(); }

    void revoked(int n) { revoked.increment(n); }

    void unavailable() { unavailable.increment(); }

    void upgraded() { upgraded.increment(); }
}
