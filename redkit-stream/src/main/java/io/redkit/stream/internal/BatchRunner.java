package io.redkit.stream.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.redkit.ObservedOperation;
import io.redkit.RedisOps;
import io.redkit.StreamEntry;
import io.redkit.stream.Message;
import io.redkit.stream.RetryLaterException;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamException;
import io.redkit.stream.StreamScripts;

/**
 * Hands a batch to the handler one message at a time, on the worker's thread: successes are acknowledged
 * together in one XACK after the batch, a failure (any throwable but OutOfMemoryError) is left pending with a
 * retry time (or moved to the dead-letter stream on its last delivery), a {@link RetryLaterException} is
 * postponed without counting, an entry that can never be read goes to the dead-letter stream at once. While the
 * batch is in hand its entries are {@link #held()}, and touched so that no other worker claims them. The next
 * read waits for the batch, which is the back-pressure: a worker holds at most one batch, and fewer entries per
 * read while its handler is slow (so that a batch fits well inside the visibility timeout).
 */
final class BatchRunner<T> {

    private static final Logger log = LoggerFactory.getLogger(BatchRunner.class);

    /** What became of one delivery. */
    private enum Result { DONE, LEFT, INTERRUPTED }

    private static final KeyValue ACKED = ObservedOperation.outcome("acked");
    private static final KeyValue RETRY = ObservedOperation.outcome("retry");
    private static final KeyValue POSTPONED = ObservedOperation.outcome("postponed");
    private static final KeyValue DEAD_LETTER = ObservedOperation.outcome("dead_letter");
    private static final KeyValue GONE = ObservedOperation.outcome("gone");
    private static final KeyValue INTERRUPTED = ObservedOperation.outcome("interrupted");

    private final WorkerContext<T> ctx;
    private final ObservedOperation handlings;
    private final StreamConfig config;
    private final long visibilityNanos;
    private final List<Delivery> unstarted = new ArrayList<>();
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private CompletableFuture<Long> lastAck = CompletableFuture.completedFuture(0L);
    private long averageNanos;

    BatchRunner(WorkerContext<T> ctx) {
        this.ctx = ctx;
        this.config = ctx.rt().config();
        this.handlings = new ObservedOperation(ctx.rt().redkit(), "redkit.stream.handle",
                "stream handle " + config.name(), KeyValues.of("stream", config.name(), "group", config.group()));
        this.visibilityNanos = config.visibilityTimeout().toNanos();
    }

    /** How many entries the next read takes: the batch size, or fewer so a batch takes a quarter of the visibility. */
    int count() {
        if (averageNanos <= 0) {
            return config.batchSize();
        }
        return (int) Math.max(1, Math.min(config.batchSize(), visibilityNanos / (4 * averageNanos)));
    }

    /** Entries read after a stop was asked for: handed back when the worker stops, never started. */
    void keepUnstarted(List<Delivery> batch) {
        unstarted.addAll(batch);
    }

    /** The entries of the batch in hand, touched by the worker's {@link Toucher} so that no other worker claims them. */
    Set<String> held() {
        return held;
    }

    void run(List<Delivery> batch, RedisOps ops) {
        Acks acks = new Acks(batch.size());
        WorkerControl control = ctx.control();
        for (Delivery d : batch) {
            held.add(d.id());
        }
        try {
            for (int i = 0; i < batch.size(); i++) {
                if (control.pastDeadline(ctx.rt().clock().nanoTime())) {
                    unstarted.addAll(batch.subList(i, batch.size()));
                    return;
                }
                Result result;
                try {
                    result = handle(batch.get(i), ops, acks);
                } catch (RuntimeException | Error e) {
                    // A Redis failure ends the session, an Error the worker: the rest of the batch was never
                    // started, and is handed back when the worker runs again instead of going down with it.
                    unstarted.addAll(batch.subList(i + 1, batch.size()));
                    throw e;
                }
                if (result == Result.INTERRUPTED) {
                    unstarted.addAll(batch.subList(i + 1, batch.size()));
                    return;
                }
            }
        } finally {
            held.clear();
            if (!acks.ids.isEmpty() && !control.aborted()) {
                acknowledge(acks, ops);
            }
        }
    }

    /** The ids a batch acknowledges, and how many of them a handler finished after a stop was asked for. */
    private static final class Acks {
        final List<String> ids;
        int finishedWhileStopping;

        Acks(int capacity) {
            ids = new ArrayList<>(capacity);
        }
    }

    /**
     * One delivery, observed as {@code redkit.stream.handle} (a root: the worker's thread runs under no request),
     * with what became of it as outcome: {@code acked} (acknowledged with the batch), {@code retry}, {@code
     * postponed}, {@code dead_letter}, {@code gone} (trimmed while pending) or {@code interrupted} (by a stop); the
     * entry id and delivery count as high-cardinality values. What the handler does is observed beneath it.
     */
    private Result handle(Delivery d, RedisOps ops, Acks acks) {
        if (!handlings.active()) {
            return handle(d, ops, acks, Observation.NOOP);
        }
        return handlings.observe(o -> handle(d, ops, acks, o.highCardinalityKeyValue("entry", d.id())
                .highCardinalityKeyValue("delivery", Long.toString(d.count()))), r -> null);
    }

    private Result handle(Delivery d, RedisOps ops, Acks acks, Observation observation) {
        QueueRuntime<T> rt = ctx.rt();
        StreamEntry entry = d.entry();
        if (entry.fields().isEmpty()) {
            // Deleted from the stream (trimmed) while pending: nothing is left to hand out.
            rt.metrics().gone(1);
            acks.ids.add(entry.id());
            observation.lowCardinalityKeyValue(GONE);
            return Result.DONE;
        }
        Envelope.Decoded<T> decoded = rt.envelope().decode(entry);
        if (decoded instanceof Envelope.Unreadable<T> unreadable) {
            rt.deadLetter(ops, ctx.consumer(), entry.id(), "undecodable", unreadable.reason(), d.count());
            ctx.book().remove(entry.id());
            observation.lowCardinalityKeyValue(DEAD_LETTER);
            return Result.DONE;
        }
        Throwable failure;
        boolean interrupted = false;
        if (decoded instanceof Envelope.OtherVersion<T> other) {
            failure = new StreamException("entry format v=" + other.version() + " is not readable by this release,"
                    + " which reads v=1; a newer consumer may read it", null);
        } else {
            Envelope.Readable<T> readable = (Envelope.Readable<T>) decoded;
            Message<T> message = new Message<>(config.name(), entry.id(), readable.key(), readable.payload(),
                    d.count());
            rt.metrics().delivered(message.redelivered());
            long start = rt.clock().nanoTime();
            failure = null;
            ctx.control().enterHandler();
            try {
                ctx.handler().handle(message);
            } catch (OutOfMemoryError e) {
                throw e; // the worker dies and restarts; the message stays pending and comes back
            } catch (Throwable e) {
                // StackOverflowError from deep recursion on a bad payload included: a failed delivery like any
                // other, so that one poison message reaches the dead letters instead of stopping every worker.
                failure = e;
            } finally {
                interrupted = ctx.control().exitHandler();
            }
            long took = rt.clock().nanoTime() - start;
            averageNanos = averageNanos == 0 ? took : averageNanos + (took - averageNanos) / 8;
            rt.metrics().handled(took, failure == null);
            if (interrupted) {
                ctx.control().interrupted.incrementAndGet();
            }
        }
        if (failure == null) {
            ctx.book().remove(entry.id());
            acks.ids.add(entry.id());
            if (ctx.control().stopping()) {
                acks.finishedWhileStopping++;
            }
            observation.lowCardinalityKeyValue(ACKED);
            return Result.DONE;
        }
        if (ctx.control().aborted() || interrupted && ctx.control().stopping()) {
            observation.lowCardinalityKeyValue(INTERRUPTED);
            return Result.INTERRUPTED; // stopped, not failed: left pending, handed out again after the visibility
        }
        if (failure instanceof RetryLaterException later) {
            observation.lowCardinalityKeyValue(POSTPONED);
            return postpone(d, later, ops);
        }
        boolean last = d.count() >= config.maxDeliveries();
        observation.lowCardinalityKeyValue(last ? DEAD_LETTER : RETRY).error(failure);
        return failed(d, failure, ops);
    }

    /**
     * A delivery the handler asked to come back later: due after its wait (between the retry backoff's minimum
     * and half the visibility timeout, so that this worker's own reread comes before anyone's claim), and its
     * delivery count given back in Redis (XCLAIM RETRYCOUNT), so waiting never spends maxDeliveries.
     */
    private Result postpone(Delivery d, RetryLaterException later, RedisOps ops) {
        QueueRuntime<T> rt = ctx.rt();
        long wait = Math.max(config.retryBackoffMin().toNanos(), Math.min(later.retryAfter().toNanos(),
                visibilityNanos / 2));
        long count = Math.max(0, d.count() - 1);
        ops.eval(StreamScripts.GIVE_BACK, List.of(rt.stream()), config.group(), ctx.consumer(), "0", d.id(),
                String.valueOf(count));
        ctx.book().schedule(d.id(), count, rt.clock().nanoTime() + wait);
        rt.metrics().postponed();
        log.debug("stream {}: {} postponed by its handler for {} ms ({})", config.name(), d.id(), wait / 1_000_000,
                later.getMessage());
        return Result.LEFT;
    }

    private Result failed(Delivery d, Throwable failure, RedisOps ops) {
        QueueRuntime<T> rt = ctx.rt();
        String id = d.id();
        if (d.count() >= config.maxDeliveries()) {
            ctx.book().remove(id);
            rt.deadLetter(ops, ctx.consumer(), id, "failed", Errors.describe(failure), d.count());
            return Result.DONE;
        }
        long due = rt.clock().nanoTime() + ctx.book().backoffNanos(d.count());
        ctx.book().schedule(id, d.count(), due);
        rt.metrics().retried();
        log.debug("stream {}: {} failed on delivery {} of {}; retried later", config.name(), id, d.count(),
                config.maxDeliveries(), failure);
        return Result.LEFT;
    }

    private void acknowledge(Acks acks, RedisOps ops) {
        QueueRuntime<T> rt = ctx.rt();
        List<String> ids = acks.ids;
        int finishedWhileStopping = acks.finishedWhileStopping;
        // Not waited for: the next command on this connection queues behind it, so the acknowledgement of one
        // batch travels while the next read is sent.
        lastAck = ops.streams().ackAsync(rt.stream(), config.group(), ids).whenComplete((n, e) -> {
            if (e != null) {
                rt.metrics().error();
                log.warn("stream {}: acknowledging {} entries failed; they are handed out again after the"
                        + " visibility timeout", config.name(), ids.size(), e);
            } else {
                rt.metrics().acknowledged(ids.size());
                ctx.control().acknowledged.addAndGet(finishedWhileStopping);
            }
        });
    }

    /**
     * At the start of a session after a failure: hands back the entries of the batch that failure cut short, never
     * started, with their delivery counts lowered, so that they are not taken for redeliveries (nor dead-lettered
     * with a poison message that kept killing its worker).
     */
    void handBackUnstarted(RedisOps ops) {
        if (unstarted.isEmpty() || ctx.control().stopping()) {
            return; // at a stop, finish() hands them back
        }
        List<String> args = giveBackArgs();
        ops.eval(StreamScripts.GIVE_BACK, List.of(ctx.rt().stream()), args.toArray(new String[0]));
        unstarted.clear();
    }

    /**
     * At a stop: waits for the last acknowledgement, then hands back what was never started (its delivery count
     * lowered by the read that never reached a handler) and, unless aborted, the failed messages waiting for a
     * retry, so other workers take them at once instead of after the visibility timeout.
     */
    void finish(RedisOps ops) {
        QueueRuntime<T> rt = ctx.rt();
        boolean aborted = ctx.control().aborted();
        if (!aborted) {
            awaitLastAck();
        }
        List<String> args = giveBackArgs();
        if (!aborted) {
            for (RetryBook.Entry e : ctx.book().all()) {
                args.add(e.id());
                args.add(String.valueOf(e.deliveries()));
            }
        }
        unstarted.clear();
        if (args.size() > 3) {
            long n = ops.eval(StreamScripts.GIVE_BACK, List.of(rt.stream()), args.toArray(new String[0]));
            ctx.control().handedBack.addAndGet(n);
        }
        if (!aborted) {
            ctx.book().clear();
        }
    }

    /**
     * {@code give-back.lua}'s group, consumer and visibility timeout, then each entry read and never started, its
     * delivery count lowered by the read that never reached a handler.
     */
    private List<String> giveBackArgs() {
        List<String> args = new ArrayList<>();
        args.add(config.group());
        args.add(ctx.consumer());
        args.add(String.valueOf(config.visibilityTimeout().toMillis()));
        for (Delivery d : unstarted) {
            args.add(d.id());
            args.add(String.valueOf(Math.max(0, d.count() - 1)));
        }
        return args;
    }

    private void awaitLastAck() {
        try {
            lastAck.get(config.commandTimeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // Logged by the acknowledgement itself; those entries are handed out again later.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
