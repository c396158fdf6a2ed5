package io.redkit.stream;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import io.redkit.PoolExhaustedException;
import io.redkit.RedisTimeoutException;
import io.redkit.Redkit;
import io.redkit.stream.internal.DefaultStreamQueue;

/**
 * A work queue on one Redis stream and one consumer group, at-least-once: a message is acknowledged only after
 * its handler returned, a failed one is handed out again after a backoff, one left with a crashed or stuck worker
 * is claimed by another after the visibility timeout, and one that failed {@link StreamConfig#maxDeliveries()}
 * times, or can never be decoded, moves to the dead-letter stream with its last error. Workers read with
 * {@code XREADGROUP BLOCK} on dedicated connections of their own, never the shared one.
 *
 * <p>Entries are readable from any language: fields {@code v} (format, {@code 1}), {@code k} (the message key)
 * and {@code d} (the payload, JSON by default). See the module README for what is lost where.
 *
 * @param <T> the payload type
 */
public interface StreamQueue<T> extends AutoCloseable {

    /** A queue of JSON payloads of {@code type}; creates the consumer group if it does not exist. */
    static <T> StreamQueue<T> create(Redkit redkit, StreamConfig config, Class<T> type) {
        return create(redkit, config, JsonCodec.of(type));
    }

    /** A queue whose payloads {@code codec} encodes; creates the consumer group if it does not exist. */
    static <T> StreamQueue<T> create(Redkit redkit, StreamConfig config, MessageCodec<T> codec) {
        return new DefaultStreamQueue<>(Objects.requireNonNull(redkit, "redkit"),
                Objects.requireNonNull(config, "config"), Objects.requireNonNull(codec, "codec"));
    }

    /**
     * Adds a message with a fresh random key ({@code XADD} with the configured trimming); returns its entry id.
     *
     * @throws RedisTimeoutException when no reply came: the message may or may not have been added, and it is not
     *     sent again; publish again with {@link #publish(String, Object)} and the same key, and let the handler
     *     drop the duplicate with {@link Once}
     * @throws StreamException when the payload cannot be encoded
     */
    String publish(T payload);

    /** Adds a message under {@code key} (1-200 characters): the key a retry of the same message must reuse. */
    String publish(String key, T payload);

    /**
     * Adds a message under {@code key} unless one was already added under that key in the last {@code remember}:
     * then nothing is added, and the first entry's id is returned. For a publisher that may send the same message
     * twice — a retry after a {@link RedisTimeoutException} whose first try did run, or an outbox relay publishing
     * an event the commit path may already have published — so that the stream holds it once. The key's marker
     * ({@code stream:{name}:published:<key>}) is checked, the entry added and the marker written in one script;
     * it lives {@code remember}, after which the same key adds a new entry. Handlers should still be idempotent
     * ({@link Once}): a marker lost with its master in a failover lets a retry add the entry again.
     *
     * @param remember how long the key is remembered: 1 s to 30 days; longer than any retry of the message
     * @throws IllegalArgumentException for a key outside 1-200 characters or a {@code remember} out of range
     * @throws RedisTimeoutException when no reply came: the message may or may not have been added; publishing
     *     again with the same key adds it at most once
     */
    String publishOnce(String key, T payload, Duration remember);

    /** {@link #publish(String, Object)} without blocking; the future fails with the same exceptions. */
    CompletableFuture<String> publishAsync(String key, T payload);

    /** {@link #publish(Object)} without blocking. */
    CompletableFuture<String> publishAsync(T payload);

    /**
     * Starts {@link StreamConfig#workers()} workers running {@code handler}, each on a thread and a dedicated
     * connection of its own, taken now: a pool that cannot give them all fails here, with nothing started.
     *
     * @throws PoolExhaustedException when the dedicated pool has fewer free connections than workers
     * @throws StreamException when the queue is closed
     */
    Workers start(MessageHandler<T> handler);

    /** Length, pending, lag, consumers and dead letters, read from Redis now, with this process's workers. */
    QueueStats stats();

    /**
     * How many workers this process started on the queue and has not stopped, and how many run now (fewer while
     * one restarts after a failure it did not survive); no Redis call, for health checks.
     */
    WorkerCount workerCount();

    /**
     * How the masters keep the stream across a restart, as last read ({@code CONFIG GET appendonly appendfsync} at
     * start and every metrics interval); no Redis call, for health checks. {@code UNKNOWN} where the ACL refuses
     * {@code CONFIG}.
     */
    QueueStats.Persistence persistence();

    /**
     * This process's workers on a queue.
     *
     * @param started started and not stopped
     * @param running of those, running now
     */
    record WorkerCount(int started, int running) {

        /** Whether fewer run than were started. */
        public boolean degraded() {
            return running < started;
        }
    }

    /** Up to {@code count} dead letters, oldest first. */
    List<DeadLetter> deadLetters(int count);

    /**
     * Removes consumers of the group idle longer than {@code idle}: each one's pending entries are first handed
     * to this process's reaper consumer, claimable at once by any worker, and its delivery counts kept, so that no
     * entry is orphaned; then the consumer is deleted. A consumer that reads again meanwhile is kept.
     *
     * @param idle at least twice the visibility timeout, so that a busy worker is never taken for a dead one
     */
    ReapResult reapDeadConsumers(Duration idle);

    /** The stream's key ({@code stream:{name}}). */
    String key();

    /** The dead-letter stream's key ({@code stream:{name}:dead}), in the stream's hash slot. */
    String deadLetterKey();

    /** The configuration. */
    StreamConfig config();

    /** Stops every worker it started, letting handlers in flight finish up to the configured deadline. */
    @Override
    void close();
}
