package io.redkit.limit.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.redkit.ObservedOperation;
import io.redkit.Redkit;

/**
 * The limit meters, tagged with the client and namespace: {@code redkit.limit.decisions} by limiter and result
 * (allowed, denied), {@code redkit.limit.unavailable} by limiter and policy (fail_open, fail_closed: decisions
 * Redis did not make), the {@code redkit.limit.latency} timer by limiter, and {@code redkit.limit.breaker.state}
 * (0 closed, 1 half-open, 2 open). Limiter names are tags: they are few and fixed in code.
 */
final class LimitMetrics {

    private final Redkit redkit;
    private final MeterRegistry registry;
    private final String namespace;
    private final Tags base;

    LimitMetrics(Redkit redkit, String namespace) {
        this.redkit = redkit;
        this.registry = redkit.meters();
        this.namespace = namespace;
        this.base = Tags.of("client", redkit.config().name(), "namespace", namespace);
    }

    /**
     * Registers the breaker's gauge, unless another {@code Limits} of the same client and namespace did: a gauge
     * is one per name and tags, and follows the first (one {@code Limits} per namespace is the intended use).
     */
    void breakerGauge(Supplier<Number> state) {
        if (registry.find("redkit.limit.breaker.state").tags(base).gauge() != null) {
            return;
        }
        Gauge.builder("redkit.limit.breaker.state", state)
                .description("the breaker in front of Redis: 0 closed, 1 half-open, 2 open (decisions by policy)")
                .tags(base).register(registry);
    }

    Meters forLimiter(String limiter) {
        return new Meters(base.and("limiter", limiter), new ObservedOperation(redkit, "redkit.limit.decision",
                "limit decision " + limiter, KeyValues.of("namespace", namespace, "limiter", limiter)));
    }

    /** The meters of one limiter, registered once, so that a decision looks nothing up. */
    final class Meters {
        private final Counter allowed;
        private final Counter denied;
        private final Counter failOpen;
        private final Counter failClosed;
        private final Timer latency;
        private final ObservedOperation decisions;

        private Meters(Tags tags, ObservedOperation decisions) {
            this.decisions = decisions;
            this.allowed = decisions(tags, "allowed");
            this.denied = decisions(tags, "denied");
            this.failOpen = unavailable(tags, "fail_open");
            this.failClosed = unavailable(tags, "fail_closed");
            this.latency = Timer.builder("redkit.limit.latency")
                    .description("time to a decision, by Redis or by policy").tags(tags).register(registry);
        }

        private Counter decisions(Tags tags, String result) {
            return Counter.builder("redkit.limit.decisions").description("decisions, by Redis or by policy")
                    .tags(tags.and("result", result)).register(registry);
        }

        private Counter unavailable(Tags tags, String policy) {
            return Counter.builder("redkit.limit.unavailable")
                    .description("decisions made by the limiter's policy because Redis could not decide")
                    .tags(tags.and("policy", policy)).register(registry);
        }

        /** The observation of decisions, {@code redkit.limit.decision}. */
        ObservedOperation decisions() {
            return decisions;
        }

        void decided(boolean wasAllowed, long nanos) {
            (wasAllowed ? allowed : denied).increment();
            latency.record(nanos, TimeUnit.NANOSECONDS);
        }

        void byPolicy(boolean open) {
            (open ? failOpen : failClosed).increment();
        }
    }
}
