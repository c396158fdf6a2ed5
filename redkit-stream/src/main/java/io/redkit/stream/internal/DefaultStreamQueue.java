package io.redkit.stream.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.StreamEntry;
import io.redkit.StreamTrim;
import io.redkit.stream.DeadLetter;
import io.redkit.stream.MessageCodec;
import io.redkit.stream.MessageHandler;
import io.redkit.stream.QueueStats;
import io.redkit.stream.ReapResult;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamException;
import io.redkit.stream.StreamQueue;
import io.redkit.stream.Workers;

/** {@link StreamQueue} over redkit-core's stream commands: publishing here, workers in {@link WorkerGroup}. */
public final class DefaultStreamQueue<T> implements StreamQueue<T> {

    private static final int MAX_KEY_LENGTH = 200;

    private final QueueRuntime<T> rt;
    private final Maintenance maintenance;
    private final List<WorkerGroup<T>> groups = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Builds the queue and creates its group if missing; use {@link StreamQueue#create}. */
    public DefaultStreamQueue(Redkit redkit, StreamConfig config, MessageCodec<T> codec) {
        KeySchema schema = KeySchema.of(config.namespace());
        String stream = schema.key(config.name());
        StreamMetrics metrics = new StreamMetrics(redkit.meters(), redkit.config().name(), config.name(),
                config.group());
        this.rt = new QueueRuntime<>(redkit, config, stream, schema.child(stream, "dead"),
                ConsumerNames.heir(config.consumerPrefix()), new Envelope<>(codec), metrics);
        try {
            rt.ensureGroup();
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
        this.maintenance = new Maintenance(rt);
    }

    @Override
    public String publish(T payload) {
        return publish(UUID.randomUUID().toString(), payload);
    }

    @Override
    public String publish(String key, T payload) {
        String id = rt.redkit().commands().streams().add(rt.stream(), fields(key, payload), trim());
        rt.metrics().published();
        return id;
    }

    @Override
    public CompletableFuture<String> publishAsync(T payload) {
        return publishAsync(UUID.randomUUID().toString(), payload);
    }

    @Override
    public CompletableFuture<String> publishAsync(String key, T payload) {
        Map<String, byte[]> fields;
        try {
            fields = fields(key, payload);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return rt.redkit().commands().streams().addAsync(rt.stream(), fields, trim())
                .whenComplete((id, e) -> {
                    if (e == null) {
                        rt.metrics().published();
                    }
                });
    }

    private Map<String, byte[]> fields(String key, T payload) {
        requireOpen();
        Objects.requireNonNull(payload, "payload");
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("a message key must be 1-" + MAX_KEY_LENGTH + " characters, was '"
                    + key + "'");
        }
        return rt.envelope().encode(key, payload);
    }

    /** MAXLEN ~ n, or MINID ~ (now − maxAge): the local wall clock against the server's ids (see the README). */
    private StreamTrim trim() {
        StreamConfig config = rt.config();
        if (config.maxAge() != null) {
            return StreamTrim.minId((rt.clock().wallMillis() - config.maxAge().toMillis()) + "-0");
        }
        return StreamTrim.maxLength(config.maxLength());
    }

    @Override
    public Workers start(MessageHandler<T> handler) {
        Objects.requireNonNull(handler, "handler");
        requireOpen();
        WorkerGroup<T> group = WorkerGroup.start(rt, handler, groups::remove);
        groups.add(group);
        return group;
    }

    @Override
    public QueueStats stats() {
        return rt.stats(rt.redkit().commands());
    }

    @Override
    public List<DeadLetter> deadLetters(int count) {
        List<DeadLetter> letters = new ArrayList<>();
        for (StreamEntry e : rt.redkit().commands().streams().range(rt.dead(), "-", "+", count)) {
            Map<String, byte[]> original = new HashMap<>();
            Map<String, String> meta = new HashMap<>();
            e.fields().forEach((k, v) -> {
                if (k.startsWith("dead-")) {
                    meta.put(k, new String(v, StandardCharsets.UTF_8));
                } else {
                    original.put(k, v);
                }
            });
            letters.add(new DeadLetter(e.id(), meta.getOrDefault("dead-id", ""), meta.getOrDefault("dead-reason", ""),
                    meta.getOrDefault("dead-error", ""), Long.parseLong(meta.getOrDefault("dead-deliveries", "0")),
                    meta.getOrDefault("dead-consumer", ""), original));
        }
        return letters;
    }

    @Override
    public ReapResult reapDeadConsumers(Duration idle) {
        Objects.requireNonNull(idle, "idle");
        Duration floor = rt.config().visibilityTimeout().multipliedBy(2);
        if (idle.compareTo(floor) < 0) {
            throw new IllegalArgumentException("idle (" + idle + ") must be at least twice the visibilityTimeout ("
                    + rt.config().visibilityTimeout() + "), or a busy worker could be taken for a dead one");
        }
        return Maintenance.reap(rt, rt.redkit().background(), idle);
    }

    @Override
    public String key() {
        return rt.stream();
    }

    @Override
    public String deadLetterKey() {
        return rt.dead();
    }

    @Override
    public StreamConfig config() {
        return rt.config();
    }

    private void requireOpen() {
        if (closed) {
            throw new StreamException("stream queue '" + rt.config().name() + "' is closed; nothing was sent", null);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (WorkerGroup<T> group : List.copyOf(groups)) {
            group.close();
        }
        maintenance.close();
        rt.metrics().close();
    }

    @Override
    public String toString() {
        return "StreamQueue[" + rt.config() + "]";
    }
}
