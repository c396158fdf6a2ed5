package io.redkit.stream.internal;

import java.util.List;
import java.util.OptionalLong;

import io.redkit.RedisOps;
import io.redkit.Redkit;
import io.redkit.RedkitClock;
import io.redkit.StreamOps;
import io.redkit.stream.QueueStats;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamScripts;

/**
 * What the workers and the maintenance of one queue share, in one place instead of a reference back to the
 * queue.
 *
 * @param redkit the client: dedicated connections for workers, the background profile for maintenance
 * @param config the queue's configuration
 * @param stream the stream's key
 * @param dead the dead-letter stream's key (same hash slot)
 * @param heir the consumer dead consumers' entries are handed to
 * @param envelope the entry layout and the payload codec
 * @param metrics the queue's meters
 * @param workers the workers this process runs on the queue
 * @param durability what the masters promise across a restart
 * @param <T> the payload type
 */
record QueueRuntime<T>(Redkit redkit, StreamConfig config, String stream, String dead, String heir,
        Envelope<T> envelope, StreamMetrics metrics, WorkerTally workers, DurabilityCheck durability) {

    RedkitClock clock() {
        return redkit.clock();
    }

    /** Creates the group (and the stream) if missing; every worker and process may call it. */
    void ensureGroup() {
        redkit.background().streams().createGroup(stream, config.group(), config.groupStart());
    }

    /** The queue as Redis sees it now. */
    QueueStats stats(RedisOps ops) {
        StreamOps s = ops.streams();
        long pending = 0;
        long consumers = 0;
        OptionalLong lag = OptionalLong.empty();
        for (StreamOps.Group g : s.groups(stream)) {
            if (g.name().equals(config.group())) {
                pending = g.pending();
                consumers = g.consumers();
                lag = g.lag();
            }
        }
        return new QueueStats(s.length(stream), pending, lag, consumers, s.length(dead), workers.started(),
                workers.running(), durability.persistence());
    }

    /**
     * Deletes entries every group acknowledged, and only those: all of them to make room in a full stream, else
     * (the periodic trim under {@link StreamConfig#maxAge()}) those older than the age. Returns how many.
     */
    long trim(RedisOps ops, boolean toMakeRoom) {
        String ageFloor = toMakeRoom ? "" : Math.max(0, clock().wallMillis() - config.maxAge().toMillis()) + "-0";
        List<Object> reply = ops.eval(StreamScripts.TRIM, List.of(stream), ageFloor);
        return (Long) reply.get(0);
    }

    /**
     * Moves one pending entry of {@code consumer} to the dead-letter stream and acknowledges it, in one script;
     * false when it was no longer this consumer's (acknowledged or claimed by another meanwhile).
     */
    boolean deadLetter(RedisOps ops, String consumer, String id, String reason, String error, long deliveries) {
        long moved = ops.eval(StreamScripts.DEAD_LETTER, List.of(stream, dead), config.group(), consumer, id, reason,
                error, String.valueOf(deliveries), String.valueOf(config.deadLetterMaxLength()));
        if (moved == 1) {
            metrics.deadLettered(reason);
            return true;
        }
        return false;
    }
}
