package io.redkit.lab.bench.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Caller;
import io.redkit.lab.bench.Contender;

/**
 * A stream contender: the library's own producer and its own consumer (one), on a stream of its own. A call
 * produces one message; the consumer runs on its own thread, as each library is built to. So that calls count
 * consumed messages and not only produced ones, at most {@link #WINDOW} messages are in flight: a call that would
 * exceed it waits until the consumer has brought the backlog down to half (one wake-up per half window, not one
 * per message). Each round starts with the window three-quarters full (the midpoint of where it swings), so that
 * the messages in flight at its end are about those it was given at its start.
 */
abstract class StreamContender implements Contender {

    static final String GROUP = "bench";
    static final int MAX_LENGTH = 100_000;
    static final int WINDOW = 512;
    private static final int LOW_WATER = WINDOW / 2;
    private static final int PRIME = WINDOW * 3 / 4;
    private static final long NEW_ROUND_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String name;
    /** A stream name of this instance alone: {@code [A-Za-z0-9-]}, so that it is also a redkit stream name. */
    final String id;
    private final AtomicLong produced = new AtomicLong();
    private final AtomicLong handled = new AtomicLong();
    private final AtomicLong seq = new AtomicLong();
    private final AtomicInteger waiters = new AtomicInteger();
    private final Object gate = new Object();
    private final Recorder endToEnd = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
    private volatile long lastCallEnd;
    private volatile boolean recording;
    private volatile boolean looping = true;
    private volatile long firstHandledNanos;
    private volatile long lastHandledNanos;
    private Thread loop;

    StreamContender(String name) {
        this.name = name;
        this.id = "bench-" + name.replaceAll("[^A-Za-z0-9]", "") + "-" + Long.toString(System.nanoTime(), 36);
    }

    @Override
    public final String name() {
        return name;
    }

    /** Connects and starts the consumer; the group exists, its stream empty. */
    abstract void start(BenchEnv env) throws Exception;

    /** Adds {@code event} the library's way (asynchronously where it can, {@link #track tracked}). */
    abstract void produce(BenchEvent event) throws Exception;

    /** The stream's key: {@code bench:stream:{<id>}} unless the library names it. */
    String key() {
        return "bench:stream:{" + id + "}";
    }

    /** Stops the consumer and closes the library's connections. */
    abstract void stop();

    private BenchEnv env;

    @Override
    public final void setup(BenchEnv env) throws Exception {
        this.env = env;
        start(env);
    }

    @Override
    public final void close() {
        try {
            stop();
        } finally {
            if (env != null) {
                deleteStream(env, key());
            }
        }
    }

    @Override
    public final void call(Caller caller) throws Exception {
        if (System.nanoTime() - lastCallEnd > NEW_ROUND_GAP_NANOS) {
            startRound();
        }
        send();
        if (produced.get() - handled.get() >= WINDOW) {
            awaitBacklog(LOW_WATER);
        }
        lastCallEnd = System.nanoTime();
    }

    private synchronized void startRound() throws Exception {
        if (System.nanoTime() - lastCallEnd <= NEW_ROUND_GAP_NANOS) {
            return; // another caller of this round began it
        }
        awaitBacklog(0); // normally handled during the other contenders' rounds already
        for (int i = 0; i < PRIME; i++) {
            send();
        }
        lastCallEnd = System.nanoTime();
    }

    /** Produces one message stamped now. */
    final void send() throws Exception {
        produced.incrementAndGet();
        produce(new BenchEvent(seq.incrementAndGet(), System.nanoTime()));
    }

    /** Watches an asynchronous produce: one that fails will never be handled, so it leaves the window. */
    final void track(CompletionStage<?> produce) {
        produce.whenComplete((id, e) -> {
            if (e != null) {
                produced.decrementAndGet();
                wake();
            }
        });
    }

    /** Runs {@code poll} in a loop on a daemon thread of its own until {@link #stopLoop()}: a hand-written consumer. */
    final void startLoop(Runnable poll) {
        loop = new Thread(() -> {
            while (looping) {
                poll.run();
            }
        }, "bench-stream-" + name);
        loop.setDaemon(true);
        loop.start();
    }

    /** Stops the loop after its current read (a blocking read returns within its block). */
    final void stopLoop() {
        looping = false;
        try {
            if (loop != null) {
                loop.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The consumer handled {@code event} (and, for a library that acknowledges per message, acknowledged it). */
    final void handled(BenchEvent event) {
        if (recording) {
            endToEnd.recordValue(Math.max(0, Math.min(TimeUnit.SECONDS.toNanos(60), System.nanoTime() - event.ts())));
        }
        long h = handled.incrementAndGet();
        long now = System.nanoTime();
        if (h == 1) {
            firstHandledNanos = now;
        }
        lastHandledNanos = now;
        if (waiters.get() > 0 && produced.get() - h <= LOW_WATER) {
            wake();
        }
    }

    private void wake() {
        synchronized (gate) {
            gate.notifyAll();
        }
    }

    /** Waits until at most {@code backlog} messages are in flight (ten seconds at the most). */
    final void awaitBacklog(long backlog) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        waiters.incrementAndGet();
        try {
            synchronized (gate) {
                while (produced.get() - handled.get() > backlog && System.nanoTime() < end) {
                    gate.wait(2);
                }
            }
        } finally {
            waiters.decrementAndGet();
        }
    }

    /** Messages handled so far. */
    final long handledCount() {
        return handled.get();
    }

    /** Nanos from the first handled message to the last. */
    final long handlingNanos() {
        return lastHandledNanos - firstHandledNanos;
    }

    /**
     * Adds {@code n} entries before the consumer starts (raw Lettuce, pipelined), in the layout every contender
     * reads: the backlog a consumer drains in {@link Drain}.
     */
    final void prefill(BenchEnv env, int n) throws Exception {
        RedisClient client = RedisClient.create(RedisURI.create(env.url()));
        try (StatefulRedisConnection<String, byte[]> c = client.connect(
                io.lettuce.core.codec.RedisCodec.of(io.lettuce.core.codec.StringCodec.UTF8,
                        io.lettuce.core.codec.ByteArrayCodec.INSTANCE))) {
            List<RedisFuture<String>> pending = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                pending.add(c.async().xadd(key(), new BenchEvent(i, System.nanoTime()).byteFields()));
                if (pending.size() == 1000 || i == n - 1) {
                    for (RedisFuture<String> f : pending) {
                        f.get(10, TimeUnit.SECONDS);
                    }
                    pending.clear();
                }
            }
        } finally {
            client.shutdown();
        }
    }

    /** Starts recording end-to-end latency (producer's stamp to handler done). */
    final void recordLatency() {
        endToEnd.reset();
        recording = true;
    }

    /** The end-to-end latencies recorded since {@link #recordLatency()}. */
    final Histogram latency() {
        return endToEnd.getIntervalHistogram();
    }

    /** Creates the group on a new stream (XGROUP CREATE … MKSTREAM), as each library's user would once. */
    static void createGroup(BenchEnv env, String key) {
        RedisClient client = RedisClient.create(RedisURI.create(env.url()));
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            c.sync().xgroupCreate(io.lettuce.core.XReadArgs.StreamOffset.from(key, "0"), GROUP,
                    io.lettuce.core.XGroupCreateArgs.Builder.mkstream());
        } finally {
            client.shutdown();
        }
    }

    /** Deletes the contender's stream, so that a long run does not fill the server. */
    static void deleteStream(BenchEnv env, String key) {
        RedisClient client = RedisClient.create(RedisURI.create(env.url()));
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            c.sync().del(key);
        } finally {
            client.shutdown();
        }
    }
}
