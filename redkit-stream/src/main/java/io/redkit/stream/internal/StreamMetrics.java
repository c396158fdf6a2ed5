package io.redkit.stream.internal;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.redkit.stream.QueueStats;

/**
 * The meters of one queue, tagged {@code client}, {@code stream} and {@code group}: counters
 * {@code redkit.stream.published}, {@code .deliveries}, {@code .redeliveries}, {@code .retries},
 * {@code .acknowledged}, {@code .claimed}, {@code .dead.lettered{reason}}, {@code .gone} (pending entries deleted
 * by someone else before they were handled), {@code .dropped} (entries a full stream deleted under
 * DROP_OLDEST), {@code .postponed}, {@code .worker.deaths}, {@code .visibility.lost}, {@code .errors} (Redis
 * failures in workers); the timer {@code .handler{outcome}}; the gauges {@code .lag}, {@code .pending},
 * {@code .length}, {@code .dead.letters}, {@code .consumers}, read from Redis every metrics interval (NaN until
 * the first read), never per message; and {@code .workers}, {@code .workers.running} of this process.
 */
final class StreamMetrics implements AutoCloseable {

    private final MeterRegistry registry;
    private final Tags tags;
    private final List<Meter> registered = new CopyOnWriteArrayList<>();
    private final Map<String, Counter> deadLettered = new ConcurrentHashMap<>();
    private final Counter published;
    private final Counter deliveries;
    private final Counter redeliveries;
    private final Counter retries;
    private final Counter acknowledged;
    private final Counter claimed;
    private final Counter gone;
    private final Counter dropped;
    private final Counter postponed;
    private final Counter workerDeaths;
    private final Counter visibilityLost;
    private final Counter errors;
    private final Timer handlerSuccess;
    private final Timer handlerFailure;
    private volatile QueueStats last;

    StreamMetrics(MeterRegistry registry, String client, String stream, String group) {
        this.registry = registry;
        this.tags = Tags.of("client", client, "stream", stream, "group", group);
        if (registry.find("redkit.stream.deliveries").tags(tags).counter() != null) {
            // Two open queues of one stream and group would count into the same meters, and the gauges of one
            // would outlive it.
            throw new IllegalStateException("a queue on stream '" + stream + "' and group '" + group + "' is already"
                    + " open on redkit '" + client + "': close it first, or start more workers from it");
        }
        this.published = counter("redkit.stream.published", "messages added by this process");
        this.deliveries = counter("redkit.stream.deliveries", "messages handed to a handler");
        this.redeliveries = counter("redkit.stream.redeliveries",
                "messages handed to a handler that had been handed out before (delivery count above 1)");
        this.retries = counter("redkit.stream.retries", "failed handlings left pending for another delivery");
        this.acknowledged = counter("redkit.stream.acknowledged", "messages acknowledged after their handler returned");
        this.claimed = counter("redkit.stream.claimed", "entries taken over after the visibility timeout");
        this.gone = counter("redkit.stream.gone", "pending entries trimmed from the stream before they were handled");
        this.dropped = counter("redkit.stream.dropped", "entries not acknowledged by every group that a full stream"
                + " deleted to make room (overflow DROP_OLDEST only)");
        this.postponed = counter("redkit.stream.postponed", "deliveries a handler postponed (RetryLaterException),"
                + " not counted against maxDeliveries");
        this.workerDeaths = counter("redkit.stream.worker.deaths", "workers stopped by a failure they did not survive"
                + " (each restarted after a backoff)");
        this.visibilityLost = counter("redkit.stream.visibility.lost", "entries another consumer took over while this"
                + " worker still held them (its touch came too late)");
        this.errors = counter("redkit.stream.errors", "Redis failures in workers (each followed by a backoff)");
        this.handlerSuccess = timer("success");
        this.handlerFailure = timer("failure");
        gauge("redkit.stream.lag", "entries not yet handed out to the group", s -> s.lag().isPresent()
                ? s.lag().getAsLong() : Double.NaN);
        gauge("redkit.stream.pending", "entries handed out and not yet acknowledged", QueueStats::pending);
        gauge("redkit.stream.length", "entries in the stream", QueueStats::length);
        gauge("redkit.stream.dead.letters", "entries in the dead-letter stream", QueueStats::deadLetters);
        gauge("redkit.stream.consumers", "consumers known to the group, live or dead", QueueStats::consumers);
    }

    /** The live worker counts, read when scraped (not from Redis). */
    void workers(WorkerTally tally) {
        registered.add(Gauge.builder("redkit.stream.workers", tally, WorkerTally::started)
                .description("workers this process started and has not stopped").tags(tags).register(registry));
        registered.add(Gauge.builder("redkit.stream.workers.running", tally, WorkerTally::running)
                .description("workers of this process running now").tags(tags).register(registry));
    }

    private Counter counter(String name, String description) {
        Counter c = Counter.builder(name).description(description).tags(tags).register(registry);
        registered.add(c);
        return c;
    }

    private Timer timer(String outcome) {
        Timer t = Timer.builder("redkit.stream.handler").description("time in the handler")
                .tags(tags.and("outcome", outcome)).register(registry);
        registered.add(t);
        return t;
    }

    private void gauge(String name, String description, ToDoubleFunction<QueueStats> value) {
        registered.add(Gauge.builder(name, this, m -> {
            QueueStats s = m.last;
            return s == null ? Double.NaN : value.applyAsDouble(s);
        }).description(description).tags(tags).register(registry));
    }

    void published() {
        published.increment();
    }

    void delivered(boolean redelivered) {
        deliveries.increment();
        if (redelivered) {
            redeliveries.increment();
        }
    }

    void handled(long nanos, boolean success) {
        (success ? handlerSuccess : handlerFailure).record(nanos, TimeUnit.NANOSECONDS);
    }

    void retried() {
        retries.increment();
    }

    void acknowledged(int n) {
        acknowledged.increment(n);
    }

    void claimed(int n) {
        claimed.increment(n);
    }

    void gone(long n) {
        gone.increment(n);
    }

    void dropped(long n) {
        dropped.increment(n);
    }

    void postponed() {
        postponed.increment();
    }

    void workerDied() {
        workerDeaths.increment();
    }

    void visibilityLost(long n) {
        visibilityLost.increment(n);
    }

    void error() {
        errors.increment();
    }

    void deadLettered(String reason) {
        deadLettered.computeIfAbsent(reason, r -> {
            Counter c = Counter.builder("redkit.stream.dead.lettered")
                    .description("messages moved to the dead-letter stream").tags(tags.and("reason", r))
                    .register(registry);
            registered.add(c);
            return c;
        }).increment();
    }

    void refreshed(QueueStats stats) {
        last = stats;
    }

    @Override
    public void close() {
        registered.forEach(registry::remove);
    }
}
