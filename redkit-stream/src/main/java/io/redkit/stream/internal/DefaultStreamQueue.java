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
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.KeySchema;
import io.redkit.Redkit;
import io.redkit.StreamEntry;
import io.redkit.RedisOps;
import io.redkit.stream.DeadLetter;
import io.redkit.stream.MessageCodec;
import io.redkit.stream.MessageHandler;
import io.redkit.stream.MessageTooLargeException;
import io.redkit.stream.QueueFullException;
import io.redkit.stream.QueueStats;
import io.redkit.stream.ReapResult;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamException;
import io.redkit.stream.StreamQueue;
import io.redkit.stream.StreamScripts;
import io.redkit.stream.Workers;

/** {@link StreamQueue} over redkit-core's stream commands: publishing here, workers in {@link WorkerGroup}. */
public final class DefaultStreamQueue<T> implements StreamQueue<T> {

    private static final Logger log = LoggerFactory.getLogger(DefaultStreamQueue.class);
    private static final int MAX_KEY_LENGTH = 200;
    private static final byte[] ASK = "ask".getBytes(StandardCharsets.UTF_8);
    private static final byte[] REJECT = "reject".getBytes(StandardCharsets.UTF_8);
    private static final byte[] DROP = "drop".getBytes(StandardCharsets.UTF_8);
    private static final long ALREADY_ADDED = 2;
    private static final Duration MIN_REMEMBER = Duration.ofSeconds(1);
    private static final Duration MAX_REMEMBER = Duration.ofDays(30);

    private final QueueRuntime<T> rt;
    private final Maintenance maintenance;
    private final List<WorkerGroup<T>> groups = new CopyOnWriteArrayList<>();
    private final AtomicLong droppedSinceWarn = new AtomicLong();
    private final AtomicLong lastDropWarn = new AtomicLong();
    private volatile boolean closed;

    /** Builds the queue and creates its group if missing; use {@link StreamQueue#create}. */
    public DefaultStreamQueue(Redkit redkit, StreamConfig config, MessageCodec<T> codec) {
        redkit.scripts().register(StreamScripts.ALL);
        KeySchema schema = KeySchema.of(config.namespace());
        String stream = schema.key(config.name());
        StreamMetrics metrics = new StreamMetrics(redkit.meters(), redkit.config().name(), config.name(),
                config.group());
        this.rt = new QueueRuntime<>(redkit, config, stream, schema.child(stream, "dead"),
                ConsumerNames.heir(config.consumerPrefix()), new Envelope<>(codec), metrics, new WorkerTally(),
                new DurabilityCheck(config.name(), config.durability()));
        try {
            rt.durability().check(redkit.background(), true);
            rt.ensureGroup();
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
        metrics.workers(rt.workers());
        this.maintenance = new Maintenance(rt);
    }

    @Override
    public String publish(T payload) {
        return publish(UUID.randomUUID().toString(), payload);
    }

    /*
     * One script adds the entry unless the stream is full; a full stream is first trimmed of what every group has
     * acknowledged (a second script, on the background profile: it may delete many entries), then the add is tried
     * once more, this time refusing or dropping the oldest as configured. Only a stream full of work nobody has
     * acknowledged ever takes the second round trip twice in a row.
     */
    @Override
    public String publish(String key, T payload) {
        return publish(List.of(rt.stream()), publishArgs(key, payload, 0));
    }

    @Override
    public String publishOnce(String key, T payload, Duration remember) {
        Objects.requireNonNull(remember, "remember");
        if (remember.compareTo(MIN_REMEMBER) < 0 || remember.compareTo(MAX_REMEMBER) > 0) {
            throw new IllegalArgumentException("remember must be " + MIN_REMEMBER + " to " + MAX_REMEMBER + ", was "
                    + remember);
        }
        byte[][] args = publishArgs(key, payload, remember.toMillis());
        return publish(List.of(rt.stream(), rt.stream() + ":published:" + key), args);
    }

    private String publish(List<String> keys, byte[][] args) {
        RedisOps ops = rt.redkit().commands();
        List<Object> reply = ops.eval(StreamScripts.PUBLISH, keys, withMode(args, ASK));
        if (isFull(reply)) {
            rt.trim(rt.redkit().background(), true);
            reply = ops.eval(StreamScripts.PUBLISH, keys, withMode(args, overflowMode()));
        }
        return added(reply);
    }

    @Override
    public CompletableFuture<String> publishAsync(T payload) {
        return publishAsync(UUID.randomUUID().toString(), payload);
    }

    @Override
    public CompletableFuture<String> publishAsync(String key, T payload) {
        byte[][] args;
        try {
            args = publishArgs(key, payload, 0);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        RedisOps ops = rt.redkit().commands();
        List<String> keys = List.of(rt.stream());
        return ops.evalAsync(StreamScripts.PUBLISH, keys, withMode(args, ASK)).thenCompose(reply -> {
            if (!isFull(reply)) {
                return CompletableFuture.completedFuture(added(reply));
            }
            return rt.redkit().background().evalAsync(StreamScripts.TRIM, keys, new byte[0])
                    .thenCompose(trimmed -> ops.evalAsync(StreamScripts.PUBLISH, keys, withMode(args, overflowMode())))
                    .thenApply(this::added);
        });
    }

    /**
     * ARGV of the publish script: the cap, a slot for the mode, how long a marker is kept (0: none), then the
     * entry's fields; checked and sized here.
     */
    private byte[][] publishArgs(String key, T payload, long rememberMillis) {
        requireOpen();
        Objects.requireNonNull(payload, "payload");
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("a message key must be 1-" + MAX_KEY_LENGTH + " characters, was '"
                    + key + "'");
        }
        Map<String, byte[]> fields = rt.envelope().encode(key, payload);
        long bytes = 0;
        for (Map.Entry<String, byte[]> f : fields.entrySet()) {
            bytes += f.getKey().length() + (long) f.getValue().length;
        }
        if (bytes > rt.config().maxEntryBytes()) {
            throw new MessageTooLargeException(rt.config().name(), bytes, rt.config().maxEntryBytes());
        }
        byte[][] args = new byte[3 + 2 * fields.size()][];
        args[0] = String.valueOf(rt.config().maxLength()).getBytes(StandardCharsets.UTF_8);
        args[2] = String.valueOf(rememberMillis).getBytes(StandardCharsets.UTF_8);
        int i = 3;
        for (Map.Entry<String, byte[]> f : fields.entrySet()) {
            args[i++] = f.getKey().getBytes(StandardCharsets.UTF_8);
            args[i++] = f.getValue();
        }
        return args;
    }

    private static byte[][] withMode(byte[][] args, byte[] mode) {
        byte[][] copy = args.clone();
        copy[1] = mode;
        return copy;
    }

    private byte[] overflowMode() {
        return rt.config().overflow() == StreamConfig.Overflow.DROP_OLDEST ? DROP : REJECT;
    }

    private static boolean isFull(List<Object> reply) {
        return (Long) reply.get(0) == 0;
    }

    /**
     * The id of an added entry (or of the entry already added under a publishOnce key); a refusal becomes
     * {@link QueueFullException}, entries dropped are counted.
     */
    private String added(List<Object> reply) {
        if (isFull(reply)) {
            throw new QueueFullException(rt.config().name(), (Long) reply.get(1), rt.config().maxLength());
        }
        if ((Long) reply.get(0) == ALREADY_ADDED) {
            return id(reply.get(1));
        }
        rt.metrics().published();
        long dropped = (Long) reply.get(2);
        if (dropped > 0) {
            rt.metrics().dropped(dropped);
            warnDropped(dropped);
        }
        return id(reply.get(1));
    }

    private static String id(Object id) {
        return id instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(id);
    }

    /** A WARN at the first drop and then at most once a second, with every entry dropped since the last one. */
    private void warnDropped(long dropped) {
        long total = droppedSinceWarn.addAndGet(dropped);
        long now = rt.clock().nanoTime();
        long last = lastDropWarn.get();
        if ((last == 0 || now - last >= 1_000_000_000L) && lastDropWarn.compareAndSet(last, now == 0 ? 1 : now)) {
            long n = droppedSinceWarn.getAndAdd(-total);
            log.warn("stream {}: full at maxLength {} with entries not acknowledged by every group; dropped the {}"
                    + " oldest (overflow DROP_OLDEST): their work will never be done", rt.config().name(),
                    rt.config().maxLength(), n);
        }
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
    public WorkerCount workerCount() {
        return new WorkerCount(rt.workers().started(), rt.workers().running());
    }

    @Override
    public QueueStats.Persistence persistence() {
        return rt.durability().persistence();
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
