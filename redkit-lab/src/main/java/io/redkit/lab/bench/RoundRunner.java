package io.redkit.lab.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.HdrHistogram.Histogram;

/**
 * Runs rounds at one caller count: {@code callers} threads call the contender in a closed loop for the round's
 * duration, each timing every call into its own histogram (merged after the round, so callers never contend).
 * The threads live as long as this runner, so every contender at this caller count runs on the same threads.
 */
public final class RoundRunner implements AutoCloseable {

    /** Latencies up to 60 s are recorded exactly enough (3 significant digits); longer ones are clamped. */
    static final long MAX_NANOS = Duration.ofSeconds(60).toNanos();
    /** 1 ns, so that sub-microsecond calls (a near-cache hit) keep 3 significant digits instead of 512 ns buckets. */
    static final long LOWEST_NANOS = 1;

    private final int callers;
    private final ExecutorService threads;
    private final Histogram[] histograms;
    private final Caller[] state;

    /** Starts {@code callers} threads, kept for every round this runner runs. */
    public RoundRunner(int callers) {
        this.callers = callers;
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(callers, r -> {
            Thread t = new Thread(r, "bench-caller-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        this.histograms = new Histogram[callers];
        this.state = new Caller[callers];
        for (int i = 0; i < callers; i++) {
            histograms[i] = new Histogram(LOWEST_NANOS, MAX_NANOS, 3);
            state[i] = new Caller(i, 0x5eed_0000L + i);
        }
    }

    /** The outcome of one round, with what the whole process allocated and spent in CPU over it. */
    public record Round(long ops, long errors, long elapsedNanos, Histogram latency, Throwable firstError,
            Costs.Spent spent) {
        /** Calls per second over the round. */
        public double opsPerSecond() {
            return ops * 1e9 / elapsedNanos;
        }

        /** CPU seconds the whole lab process spent over the round, or null when the JVM cannot tell. */
        public Double processCpuSeconds() {
            return spent.cpuNanos() < 0 ? null : spent.cpuNanos() / 1e9;
        }
    }

    /** Runs {@code contender} for {@code duration} on every caller thread and returns what they did. */
    public Round run(Contender contender, Duration duration) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(callers);
        CountDownLatch go = new CountDownLatch(1);
        long[] ops = new long[callers];
        long[] errors = new long[callers];
        Throwable[] firstError = new Throwable[callers];
        Stop stop = new Stop();
        List<Future<?>> running = new ArrayList<>(callers);
        for (int i = 0; i < callers; i++) {
            int id = i;
            running.add(threads.submit(() -> {
                Histogram h = histograms[id];
                h.reset();
                Caller caller = state[id];
                ready.countDown();
                go.await();
                long count = 0;
                long failed = 0;
                while (!stop.now) {
                    long start = System.nanoTime();
                    try {
                        contender.call(caller);
                    } catch (Exception e) {
                        failed++;
                        if (firstError[id] == null) {
                            firstError[id] = e;
                        }
                    }
                    h.recordValue(Math.min(MAX_NANOS, System.nanoTime() - start));
                    count++;
                }
                ops[id] = count;
                errors[id] = failed;
                return null;
            }));
        }
        ready.await();
        Costs.Snapshot before = Costs.now();
        long start = System.nanoTime();
        go.countDown();
        Thread.sleep(duration.toMillis());
        stop.now = true;
        for (Future<?> f : running) {
            try {
                f.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("caller thread failed", e.getCause());
            }
        }
        long elapsed = System.nanoTime() - start;
        Costs.Spent spent = Costs.between(before, Costs.now());
        Histogram merged = new Histogram(LOWEST_NANOS, MAX_NANOS, 3);
        long total = 0;
        long failed = 0;
        Throwable first = null;
        for (int i = 0; i < callers; i++) {
            merged.add(histograms[i]);
            total += ops[i];
            failed += errors[i];
            first = first == null ? firstError[i] : first;
        }
        return new Round(total, failed, elapsed, merged, first, spent);
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }

    private static final class Stop {
        volatile boolean now;
    }
}
