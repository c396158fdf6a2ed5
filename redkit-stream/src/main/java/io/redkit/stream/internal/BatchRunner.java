package io.redkit.stream.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedisOps;
import io.redkit.StreamEntry;
import io.redkit.stream.Message;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamException;
import io.redkit.stream.StreamScripts;

/**
 * Hands a batch to the handler one message at a time, on the worker's thread: successes are acknowledged
 * together in one XACK after the batch, a failure is left pending with a retry time (or moved to the dead-letter
 * stream on its last delivery), an entry that can never be read goes to the dead-letter stream at once. The next
 * read waits for the batch, which is the back-pressure: a worker holds at most one batch, and fewer entries per
 * read while its handler is slow (so that a batch fits well inside the visibility timeout).
 */
final class BatchRunner<T> {

    private static final Logger log = LoggerFactory.getLogger(BatchRunner.class);

    /** What became of one delivery. */
    private enum Result { DONE, LEFT, INTERRUPTED }

    private final WorkerContext<T> ctx;
    private final StreamConfig config;
    private final long visibilityNanos;
    private final List<Delivery> unstarted = new ArrayList<>();
    private CompletableFuture<Long> lastAck = CompletableFuture.completedFuture(0L);
    private long averageNanos;

    BatchRunner(WorkerContext<T> ctx) {
        this.ctx = ctx;
        this.config = ctx.rt().config();
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

    void run(List<Delivery> batch, RedisOps ops) {
        List<String> acks = new ArrayList<>(batch.size());
        WorkerControl control = ctx.control();
        try {
            for (int i = 0; i < batch.size(); i++) {
                if (control.pastDeadline(ctx.rt().clock().nanoTime())) {
                    unstarted.addAll(batch.subList(i, batch.size()));
                    return;
                }
                if (handle(batch.get(i), ops, acks) == Result.INTERRUPTED) {
                    control.interrupted.incrementAndGet();
                    unstarted.addAll(batch.subList(i + 1, batch.size()));
                    return;
                }
            }
        } finally {
            if (!acks.isEmpty() && !control.aborted()) {
                acknowledge(acks, ops);
            }
        }
    }

    private Result handle(Delivery d, RedisOps ops, List<String> acks) {
        QueueRuntime<T> rt = ctx.rt();
        StreamEntry entry = d.entry();
        if (entry.fields().isEmpty()) {
            // Deleted from the stream (trimmed) while pending: nothing is left to hand out.
            rt.metrics().gone(1);
            acks.add(entry.id());
            return Result.DONE;
        }
        Envelope.Decoded<T> decoded = rt.envelope().decode(entry);
        if (decoded instanceof Envelope.Unreadable<T> unreadable) {
            rt.deadLetter(ops, ctx.consumer(), entry.id(), "undecodable", unreadable.reason(), d.count());
            ctx.book().remove(entry.id());
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
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                failure = e;
            } finally {
                interrupted = ctx.control().exitHandler();
            }
            long took = rt.clock().nanoTime() - start;
            averageNanos = averageNanos == 0 ? took : averageNanos + (took - averageNanos) / 8;
            rt.metrics().handled(took, failure == null);
        }
        if (failure == null) {
            ctx.book().remove(entry.id());
            acks.add(entry.id());
            return Result.DONE;
        }
        if (ctx.control().aborted() || interrupted && ctx.control().stopping()) {
            return Result.INTERRUPTED; // stopped, not failed: left pending, handed out again after the visibility
        }
        return failed(d, failure, ops);
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

    private void acknowledge(List<String> ids, RedisOps ops) {
        QueueRuntime<T> rt = ctx.rt();
        boolean stopping = ctx.control().stopping();
        // Not waited for: the next command on this connection queues behind it, so the acknowledgement of one
        // batch travels while the next read is sent.
        lastAck = ops.streams().ackAsync(rt.stream(), config.group(), ids).whenComplete((n, e) -> {
            if (e != null) {
                rt.metrics().error();
                log.warn("stream {}: acknowledging {} entries failed; they are handed out again after the"
                        + " visibility timeout", config.name(), ids.size(), e);
            } else {
                rt.metrics().acknowledged(ids.size());
                if (stopping) {
                    ctx.control().acknowledged.addAndGet(ids.size());
                }
            }
        });
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
        List<String> args = new ArrayList<>();
        args.add(config.group());
        args.add(ctx.consumer());
        args.add(String.valueOf(config.visibilityTimeout().toMillis()));
        for (Delivery d : unstarted) {
            args.add(d.id());
            args.add(String.valueOf(Math.max(0, d.count() - 1)));
        }
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
