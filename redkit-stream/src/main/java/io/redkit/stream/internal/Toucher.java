package io.redkit.stream.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedkitTimer;
import io.redkit.stream.StreamScripts;

/**
 * Keeps what one worker holds its own: every third of the visibility timeout, resets the idle time of the entries
 * of its batch in hand (the one its handler runs and those waiting behind it) with the {@code touch} script, so
 * that a slow handler, or a batch read ahead of one, is never claimed and run a second time by another worker.
 * Runs on the client's timer and sends without blocking, on the shared connection (background profile): the
 * worker's own connection is busy with its handler's thread, and may be blocked in a read.
 */
final class Toucher {

    private static final Logger log = LoggerFactory.getLogger(Toucher.class);
    private static final int IDS_PER_CALL = 500;

    private final QueueRuntime<?> rt;
    private final String consumer;
    private final Set<String> held;
    private final long everyNanos;
    private volatile RedkitTimer.Scheduled next;
    private volatile boolean stopped;

    Toucher(QueueRuntime<?> rt, String consumer, Set<String> held) {
        this.rt = rt;
        this.consumer = consumer;
        this.held = held;
        this.everyNanos = rt.config().visibilityTimeout().toNanos() / 3;
    }

    void start() {
        schedule();
    }

    void stop() {
        stopped = true;
        RedkitTimer.Scheduled s = next;
        if (s != null) {
            s.cancel();
        }
    }

    private void schedule() {
        if (stopped) {
            return;
        }
        try {
            next = rt.redkit().timer().schedule(this::touch, everyNanos);
        } catch (RejectedExecutionException e) {
            // the client is closed: the worker stops too
        }
    }

    private void touch() {
        List<String> ids = new ArrayList<>(held);
        if (ids.isEmpty() || stopped) {
            schedule();
            return;
        }
        List<CompletableFuture<List<Object>>> calls = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += IDS_PER_CALL) {
            List<String> part = ids.subList(from, Math.min(ids.size(), from + IDS_PER_CALL));
            byte[][] args = new byte[2 + part.size()][];
            args[0] = rt.config().group().getBytes(StandardCharsets.UTF_8);
            args[1] = consumer.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < part.size(); i++) {
                args[2 + i] = part.get(i).getBytes(StandardCharsets.UTF_8);
            }
            calls.add(rt.redkit().background().evalAsync(StreamScripts.TOUCH, List.of(rt.stream()), args)
                    .whenComplete(this::lost));
        }
        CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0])).whenComplete((ok, e) -> schedule());
    }

    private void lost(List<Object> taken, Throwable failure) {
        if (failure != null) {
            // The next touch comes a third of the timeout later: two more chances before anyone may claim.
            log.debug("stream {}: touching the entries of {} failed", rt.config().name(), consumer, failure);
            return;
        }
        if (!taken.isEmpty()) {
            rt.metrics().visibilityLost(taken.size());
            log.warn("stream {}: {} entries held by {} were taken over by another consumer before their touch (the"
                    + " worker was paused or Redis slow past the visibility timeout {}); they may run twice",
                    rt.config().name(), taken.size(), consumer, rt.config().visibilityTimeout());
        }
    }
}
