package io.redkit.stream.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedisOps;
import io.redkit.RedkitException;
import io.redkit.RedkitTimer;
import io.redkit.StreamOps;
import io.redkit.stream.ReapResult;
import io.redkit.stream.StreamScripts;

/**
 * The queue's housekeeping on a thread of its own, woken by the client's timer: every metrics interval, trims
 * acknowledged entries past {@code maxAge}, reads the masters' persistence settings and the gauges (XINFO GROUPS,
 * XLEN of both streams), never per message; and removes dead consumers every reap interval. Runs on the background profile of the shared connection: nothing here blocks on the server.
 */
final class Maintenance implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Maintenance.class);

    private final QueueRuntime<?> rt;
    private final ExecutorService thread;
    private final long intervalNanos;
    private final long reapEveryNanos;
    private long nextReap;
    private volatile RedkitTimer.Scheduled scheduled;
    private volatile boolean closed;

    Maintenance(QueueRuntime<?> rt) {
        this.rt = rt;
        this.intervalNanos = rt.config().metricsInterval().toNanos();
        Duration reapAfter = rt.config().reapAfter();
        this.reapEveryNanos = reapAfter.isZero() ? 0 : Math.max(intervalNanos, reapAfter.toNanos() / 4);
        this.nextReap = rt.clock().nanoTime() + reapEveryNanos;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "redkit-stream-" + rt.config().name() + "-maintenance");
            t.setDaemon(true);
            return t;
        });
        schedule(0);
    }

    private void schedule(long delayNanos) {
        if (closed) {
            return;
        }
        try {
            scheduled = rt.redkit().timer().schedule(() -> {
                try {
                    thread.execute(this::tick);
                } catch (RejectedExecutionException e) {
                    // closed meanwhile
                }
            }, delayNanos);
        } catch (RejectedExecutionException e) {
            // the client is closed: nothing left to watch
        }
    }

    private void tick() {
        try {
            RedisOps ops = rt.redkit().background();
            if (rt.config().maxAge() != null) {
                rt.trim(ops, false);
            }
            rt.durability().check(ops, false);
            rt.metrics().refreshed(rt.stats(ops));
            long now = rt.clock().nanoTime();
            if (reapEveryNanos > 0 && now - nextReap >= 0) {
                nextReap = now + reapEveryNanos;
                reap(rt, ops, rt.config().reapAfter());
            }
        } catch (RedkitException e) {
            log.debug("stream {}: maintenance failed; next try in {}", rt.config().name(),
                    rt.config().metricsInterval(), e);
        } finally {
            schedule(intervalNanos);
        }
    }

    /** Hands the pending entries of consumers idle longer than {@code idle} to the heir, then deletes them. */
    static ReapResult reap(QueueRuntime<?> rt, RedisOps ops, Duration idle) {
        List<String> removed = new ArrayList<>();
        long handedOn = 0;
        String visibility = String.valueOf(rt.config().visibilityTimeout().toMillis());
        for (StreamOps.ConsumerInfo c : ops.streams().consumers(rt.stream(), rt.config().group())) {
            if (c.idle().compareTo(idle) < 0 || c.name().equals(rt.heir())) {
                continue;
            }
            long moved = ops.eval(StreamScripts.REAP, List.of(rt.stream()), rt.config().group(), c.name(), rt.heir(),
                    String.valueOf(idle.toMillis()), visibility);
            if (moved >= 0) {
                removed.add(c.name());
                handedOn += moved;
                log.info("stream {}: removed consumer {}, idle {}; its {} pending entries handed on to {}",
                        rt.config().name(), c.name(), c.idle(), moved, rt.heir());
            }
        }
        return new ReapResult(removed, handedOn);
    }

    @Override
    public void close() {
        closed = true;
        RedkitTimer.Scheduled s = scheduled;
        if (s != null) {
            s.cancel();
        }
        thread.shutdownNow();
    }
}
