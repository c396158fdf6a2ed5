package io.redkit.stream.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.DedicatedConnection;
import io.redkit.RedisCommandException;
import io.redkit.RedkitException;
import io.redkit.stream.Worker;

/**
 * One worker: a thread of its own and, at any time, one dedicated connection. It runs sessions
 * ({@link WorkerSession}) until stopped; after a Redis failure it gives the connection back (the pool discards
 * one a command timed out on), waits a growing backoff so that an outage costs no CPU, and takes another; after
 * any other failure it counts a death and restarts after a backoff. A {@link Toucher} keeps its batch in hand
 * its own. Its
 * failed messages ({@link RetryBook}) survive a reconnect: they are still pending for its consumer name.
 */
final class StreamWorker<T> implements Worker {

    private static final Logger log = LoggerFactory.getLogger(StreamWorker.class);
    private static final long MIN_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long MIN_DEATH_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long MAX_DEATH_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(30);
    // Deaths further apart than this do not make the next pause longer.
    private static final long DEATHS_FORGOTTEN_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final WorkerContext<T> ctx;
    private final BatchRunner<T> runner;
    private final Toucher toucher;
    private final Thread thread;
    private final CountDownLatch done = new CountDownLatch(1);
    private DedicatedConnection connection;
    private int deaths;
    private long lastDeath;

    StreamWorker(WorkerContext<T> ctx, DedicatedConnection first) {
        this.ctx = ctx;
        this.runner = new BatchRunner<>(ctx);
        this.toucher = new Toucher(ctx.rt(), ctx.consumer(), runner.held());
        this.connection = first;
        this.thread = new Thread(this::run, "redkit-stream-" + ctx.rt().config().name() + "-" + ctx.consumer());
        this.thread.setDaemon(true);
        ctx.control().bind(thread);
    }

    void start() {
        ctx.rt().workers().add();
        thread.start();
    }

    @Override
    public String consumer() {
        return ctx.consumer();
    }

    @Override
    public boolean isRunning() {
        return done.getCount() > 0;
    }

    @Override
    public void abort() {
        ctx.control().abort();
    }

    WorkerControl control() {
        return ctx.control();
    }

    /** Waits up to {@code nanos} for the thread to end; true when it has. */
    boolean awaitStopped(long nanos) throws InterruptedException {
        return done.await(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    private void run() {
        WorkerControl control = ctx.control();
        int failures = 0;
        boolean up = true;
        toucher.start();
        try {
            while (!control.stopping() && !ctx.rt().redkit().isClosed()) {
                Throwable death = null;
                try {
                    if (connection == null) {
                        connection = ctx.rt().redkit().dedicated();
                    }
                    new WorkerSession<>(ctx, runner, connection).run();
                    failures = 0;
                } catch (RedkitException e) {
                    failures++;
                    recover(e, failures);
                } catch (RuntimeException | Error e) {
                    death = e; // a bug of ours, a codec's Error, a handler's OutOfMemoryError: nothing Redis did
                } finally {
                    if (connection != null) {
                        connection.close();
                        connection = null;
                    }
                }
                if (death != null) {
                    up = false;
                    dieAndRestart(death);
                    up = true;
                } else if (failures > 0) {
                    control.await(pauseNanos(failures));
                }
            }
        } finally {
            toucher.stop();
            ctx.rt().workers().remove(up);
            done.countDown();
        }
    }

    /**
     * A worker never just ends: it counts the death, reports itself down (the queue's stats and health show fewer
     * workers running), waits a backoff that grows with deaths in quick succession, and runs again. What it held
     * stays pending for its consumer name, and is claimed after the visibility timeout.
     */
    private void dieAndRestart(Throwable death) {
        long now = ctx.rt().clock().nanoTime();
        deaths = lastDeath != 0 && now - lastDeath < DEATHS_FORGOTTEN_NANOS ? deaths + 1 : 1;
        lastDeath = now;
        long pause = Math.min(MAX_DEATH_PAUSE_NANOS, MIN_DEATH_PAUSE_NANOS << Math.min(deaths - 1, 20));
        ctx.rt().workers().down(); // first, so that whoever sees the death counted sees the worker down
        ctx.rt().metrics().workerDied();
        log.error("stream {}: worker {} stopped by a failure it did not survive (death {} in a row); restarting in {}"
                + " ms, its entries stay pending", ctx.rt().config().name(), ctx.consumer(), deaths,
                pause / 1_000_000, death);
        try {
            ctx.control().await(pause);
        } finally {
            ctx.rt().workers().up();
        }
    }

    private void recover(RedkitException e, int failures) {
        ctx.rt().metrics().error();
        if (e instanceof RedisCommandException c && "NOGROUP".equals(c.errorCode())) {
            // The stream or its group was deleted under the workers: create them again and carry on.
            log.warn("stream {}: group {} is gone; creating it again", ctx.rt().config().name(),
                    ctx.rt().config().group());
            try {
                ctx.rt().ensureGroup();
            } catch (RedkitException again) {
                e.addSuppressed(again);
            }
        }
        if (failures == 1) {
            log.warn("stream {}: worker {} lost its connection or command ({}); retrying with backoff",
                    ctx.rt().config().name(), ctx.consumer(), e.toString());
        } else {
            log.debug("stream {}: worker {} failure {}", ctx.rt().config().name(), ctx.consumer(), failures, e);
        }
    }

    /** 10 ms doubling to 1 s: a worker facing an outage neither spins nor leaves the others its backlog for long. */
    private static long pauseNanos(int failures) {
        return Math.min(MAX_PAUSE_NANOS, MIN_PAUSE_NANOS << Math.min(failures - 1, 10));
    }

    @Override
    public String toString() {
        return "Worker[" + ctx.consumer() + (isRunning() ? ", running" : ", stopped") + "]";
    }
}
