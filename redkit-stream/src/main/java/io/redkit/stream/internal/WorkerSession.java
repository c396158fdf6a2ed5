package io.redkit.stream.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.redkit.DedicatedConnection;
import io.redkit.RedisOps;
import io.redkit.StreamEntry;
import io.redkit.StreamOps;
import io.redkit.stream.StreamConfig;
import io.redkit.stream.StreamScripts;

/**
 * One worker's loop on one dedicated connection, until a stop or a Redis failure: claim what others left idle
 * past the visibility timeout, hand out again its own failed messages whose backoff is over, and otherwise read
 * new entries with {@code XREADGROUP BLOCK}, blocking no longer than the next retry or claim is due. A failure
 * ends the session; the worker then takes another connection (the pool discards one a command timed out on).
 */
final class WorkerSession<T> {

    private static final long MIN_BLOCK_NANOS = 1_000_000;
    private static final String SCAN_DONE = "0-0";

    private final WorkerContext<T> ctx;
    private final BatchRunner<T> runner;
    private final StreamConfig config;
    private final RedisOps ops;
    private final RedisOps blocking;
    private String claimCursor = SCAN_DONE;
    private long nextClaim;

    WorkerSession(WorkerContext<T> ctx, BatchRunner<T> runner, DedicatedConnection connection) {
        this.ctx = ctx;
        this.runner = runner;
        this.config = ctx.rt().config();
        this.ops = connection.ops().withTimeout(config.commandTimeout());
        // The reply of a blocking read may come as late as the block, plus the time any command may take.
        this.blocking = connection.ops().withTimeout(config.block().plus(config.commandTimeout()));
        this.nextClaim = ctx.rt().clock().nanoTime();
    }

    /** Runs until a stop (then hands back what it holds) or until a Redis failure throws. */
    void run() {
        WorkerControl control = ctx.control();
        runner.handBackUnstarted(ops);
        while (!control.stopping()) {
            step();
        }
        runner.finish(ops);
    }

    private void step() {
        long now = ctx.rt().clock().nanoTime();
        if (now - nextClaim >= 0) {
            runner.run(claim(now), ops);
            return;
        }
        List<RetryBook.Entry> due = ctx.book().due(now, config.batchSize());
        if (!due.isEmpty()) {
            runner.run(reread(due), ops);
            return;
        }
        long wait = Math.min(nextClaim - now, ctx.book().nanosUntilNext(now));
        if (ctx.book().isFull()) {
            ctx.control().await(wait); // back-pressure of failure: no new entries until a retry is due
            return;
        }
        long block = Math.max(MIN_BLOCK_NANOS, Math.min(wait, config.block().toNanos()));
        List<StreamEntry> fresh = blocking.streams().readGroup(ctx.rt().stream(), config.group(), ctx.consumer(),
                ">", runner.count(), Duration.ofNanos(block));
        List<Delivery> batch = new ArrayList<>(fresh.size());
        for (StreamEntry e : fresh) {
            batch.add(new Delivery(e, 1));
        }
        if (ctx.control().stopping()) {
            runner.keepUnstarted(batch); // read after the stop was asked for: never started, handed back
        } else {
            runner.run(batch, ops);
        }
    }

    /**
     * Claims entries idle longer than the visibility timeout, with their delivery counts; one over the limit goes
     * to the dead-letter stream as abandoned (its last delivery never came back) instead of being handed out.
     */
    private List<Delivery> claim(long now) {
        QueueRuntime<T> rt = ctx.rt();
        List<Object> reply = ops.eval(StreamScripts.CLAIM, List.of(rt.stream()), config.group(), ctx.consumer(),
                String.valueOf(config.visibilityTimeout().toMillis()), claimCursor,
                String.valueOf(config.batchSize()));
        claimCursor = text(reply.get(0));
        // Scan on at once while the list of pending entries has more; then wait an interval, jittered so that the
        // workers of a group do not claim in step.
        long interval = config.claimInterval().toNanos();
        nextClaim = SCAN_DONE.equals(claimCursor) ? now + interval * 3 / 4
                + ThreadLocalRandom.current().nextLong(interval / 2 + 1) : now;
        rt.metrics().gone((Long) reply.get(2));
        List<Delivery> claimed = new ArrayList<>();
        for (Object item : (List<?>) reply.get(1)) {
            List<?> parts = (List<?>) item;
            String id = text(parts.get(0));
            long deliveries = (Long) parts.get(1);
            ctx.book().remove(id);
            if (deliveries > config.maxDeliveries()) {
                rt.deadLetter(ops, ctx.consumer(), id, "abandoned", "handed out " + (deliveries - 1) + " times; the"
                        + " last delivery never came back (its worker stopped, crashed or hung past the visibility"
                        + " timeout)", deliveries - 1);
                continue;
            }
            claimed.add(new Delivery(new StreamEntry(id, fields((List<?>) parts.get(2))), deliveries));
        }
        rt.metrics().claimed(claimed.size());
        return claimed;
    }

    /**
     * Hands out again its own failed messages whose backoff is over: {@code XREADGROUP} from the id just below
     * each, {@code COUNT 1}, returns exactly that entry while it is still ours, and counts a delivery. When it is
     * not ours any more (acknowledged, or claimed by another worker) the read returns the next entry of ours, if
     * any: that one is handed out now too, since its count has just gone up.
     */
    private List<Delivery> reread(List<RetryBook.Entry> due) {
        QueueRuntime<T> rt = ctx.rt();
        StreamOps streams = ops.streams();
        List<Delivery> batch = new ArrayList<>(due.size());
        Set<String> taken = new HashSet<>();
        for (RetryBook.Entry e : due) {
            if (taken.contains(e.id())) {
                continue;
            }
            List<StreamEntry> got = streams.readGroup(rt.stream(), config.group(), ctx.consumer(),
                    StreamIds.previous(e.id()), 1, Duration.ZERO);
            if (got.isEmpty() || !got.get(0).id().equals(e.id())) {
                ctx.book().remove(e.id());
            }
            if (got.isEmpty() || !taken.add(got.get(0).id())) {
                continue;
            }
            StreamEntry entry = got.get(0);
            RetryBook.Entry known = ctx.book().get(entry.id());
            long count = known != null ? known.deliveries() + 1 : deliveriesOf(streams, entry.id());
            batch.add(new Delivery(entry, count));
        }
        return batch;
    }

    private long deliveriesOf(StreamOps streams, String id) {
        List<StreamOps.Pending> p = streams.pending(ctx.rt().stream(), config.group(), id, id, 1);
        return p.isEmpty() ? 1 : p.get(0).deliveries();
    }

    private static Map<String, byte[]> fields(List<?> flat) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(text(flat.get(i)), (byte[]) flat.get(i + 1));
        }
        return fields;
    }

    private static String text(Object value) {
        return value instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(value);
    }
}
