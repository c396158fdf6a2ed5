package io.redkit.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.redkit.RedkitException;

/**
 * redkit's own meters, all tagged {@code client=<name>}: command latency by profile and command, failures in
 * redkit's error model, retries, NOSCRIPT fallbacks and the dedicated pool. Latency is recorded on the caller's
 * thread, not by Lettuce's recorder: that one runs on the shared connection's single event-loop thread, which is
 * the bottleneck at many callers (bench client measured it at 2–5% of throughput).
 */
public final class RedkitMetrics {

    private final MeterRegistry registry;
    private final Tags tags;
    private final Map<String, Counter> failures = new ConcurrentHashMap<>();
    private final Map<String, Counter> retries = new ConcurrentHashMap<>();
    private final Counter scriptReloads;
    private final Counter poolExhausted;
    private final Timer poolWait;

    /** Registers the fixed meters of one client. */
    public RedkitMetrics(MeterRegistry registry, String clientName) {
        this.registry = registry;
        this.tags = Tags.of("client", clientName);
        this.scriptReloads = Counter.builder("redkit.script.reloads")
                .description("EVALSHA answered NOSCRIPT and the script was sent again with EVAL")
                .tags(tags).register(registry);
        this.poolExhausted = Counter.builder("redkit.pool.exhausted")
                .description("callers that waited the whole pool wait without getting a dedicated connection")
                .tags(tags).register(registry);
        this.poolWait = Timer.builder("redkit.pool.wait")
                .description("time spent waiting for a dedicated connection").tags(tags).register(registry);
    }

    /** The registry the meters live in. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Counts a failed call by profile and exception type. */
    public void failure(String profile, RedkitException e) {
        String type = e.getClass().getSimpleName();
        failures.computeIfAbsent(profile + '/' + type, k -> Counter.builder("redkit.command.failures")
                .description("commands that failed, by profile and redkit exception")
                .tags(tags.and("profile", profile, "exception", type)).register(registry)).increment();
    }

    /** The latency timer of {@code command} under {@code profile}; callers keep it, lookups are not free. */
    public Timer latency(String profile, String command) {
        return Timer.builder("redkit.command.latency")
                .description("time from sending a command to its reply, successful attempts only")
                .tags(tags.and("profile", profile, "command", command)).register(registry);
    }

    /** Counts a retry by profile. */
    public void retry(String profile) {
        retries.computeIfAbsent(profile, k -> Counter.builder("redkit.command.retries")
                .description("idempotent or unsent commands sent again").tags(tags.and("profile", profile))
                .register(registry)).increment();
    }

    /** Counts a NOSCRIPT fallback to EVAL. */
    public void scriptReload() {
        scriptReloads.increment();
    }

    /** Records a pool wait, and whether it ended without a connection. */
    public void poolWait(long nanos, boolean exhausted) {
        poolWait.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        if (exhausted) {
            poolExhausted.increment();
        }
    }

    /** Registers a pool gauge ({@code redkit.pool.active}, {@code .idle}, {@code .max}, {@code .pending}). */
    public void poolGauge(String name, String description, Supplier<Number> value) {
        Gauge.builder("redkit.pool." + name, value).description(description).tags(tags).register(registry);
    }
}
