package io.redkit.spring;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.redkit.Redkit;
import io.redkit.json.Json;
import io.redkit.stream.JsonCodec;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamQueue;

/**
 * Builds stream queues by name and payload type, {@code queues.queue("orders", Order.class)}, with the settings
 * of {@code redkit.queue.queues.<name>} (or redkit-stream's defaults for a name not listed). The settings of
 * every listed queue are checked at start-up. One queue per name, of one type; all are closed with the context.
 */
public final class RedkitQueues implements AutoCloseable {

    private record Built(Class<?> type, StreamQueue<?> queue) {
    }

    private final Redkit redkit;
    private final RedkitQueueProperties properties;
    private final Json json;
    private final Map<String, Built> queues = new LinkedHashMap<>();

    /**
     * Queues over {@code redkit}, payloads as JSON through {@link Json#defaults()}; fails at once, naming the
     * setting, when a listed queue's settings are bad.
     */
    public RedkitQueues(Redkit redkit, RedkitQueueProperties properties) {
        this(redkit, properties, null);
    }

    /**
     * Queues over {@code redkit}, payloads as JSON through {@code json} (the application's Jackson), or {@link
     * Json#defaults()} when it is null; fails at once, naming the setting, when a listed queue's settings are bad.
     */
    public RedkitQueues(Redkit redkit, RedkitQueueProperties properties, Json json) {
        this.redkit = Objects.requireNonNull(redkit, "redkit");
        this.properties = Objects.requireNonNull(properties, "properties");
        this.json = json;
        properties.getQueues().keySet().forEach(this::config);
    }

    /**
     * The queue {@code name} of JSON payloads of {@code type}: built (and its consumer group created) on the first
     * call, the same one after.
     *
     * @throws IllegalStateException when the queue was built for another type
     */
    @SuppressWarnings("unchecked")
    public synchronized <T> StreamQueue<T> queue(String name, Class<T> type) {
        Objects.requireNonNull(type, "type");
        Built built = queues.get(Objects.requireNonNull(name, "name"));
        if (built == null) {
            JsonCodec<T> codec = JsonCodec.using(json == null ? Json.defaults() : json, type);
            built = new Built(type, StreamQueue.create(redkit, config(name), codec));
            queues.put(name, built);
        } else if (built.type() != type) {
            throw new IllegalStateException("queue '" + name + "' carries " + built.type().getName() + ", not "
                    + type.getName() + ": one payload type per queue");
        }
        return (StreamQueue<T>) built.queue();
    }

    /** The queues built so far, by name, in the order they were built. */
    public synchronized Map<String, StreamQueue<?>> built() {
        Map<String, StreamQueue<?>> built = new LinkedHashMap<>();
        queues.forEach((name, b) -> built.put(name, b.queue()));
        return built;
    }

    /** Closes every queue built here (their workers keep their own lifecycle: close those first). */
    @Override
    public synchronized void close() {
        queues.values().forEach(b -> b.queue().close());
        queues.clear();
    }

    private StreamConfig config(String name) {
        RedkitQueueProperties.Spec spec = properties.getQueues().getOrDefault(name, new RedkitQueueProperties.Spec());
        try {
            StreamConfig.Builder b = StreamConfig.builder(name).group(spec.getGroup()).workers(spec.getWorkers())
                    .maxLength(spec.getMaxLength()).maxDeliveries(spec.getMaxDeliveries())
                    .visibilityTimeout(spec.getVisibilityTimeout()).batchSize(spec.getBatchSize());
            if (spec.getConsumerPrefix() != null) {
                b.consumerPrefix(spec.getConsumerPrefix());
            }
            return b.build();
        } catch (IllegalArgumentException | IllegalStateException | NullPointerException e) {
            throw new IllegalArgumentException("redkit.queue.queues." + name + ": " + e.getMessage(), e);
        }
    }
}
