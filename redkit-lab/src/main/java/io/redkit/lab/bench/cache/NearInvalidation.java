package io.redkit.lab.bench.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.Benchmark;

/**
 * The near cache's invalidation latency in {@code bench cache}: two instances of one cache (two clients, each with
 * its own near cache of the same name); instance B holds a near copy of a key, instance A (or a foreign client)
 * writes, and the time runs from just before the write is sent to the first read of B's near copy that no longer
 * answers with the old value. One sample at a time, each on a fresh key (so that no earlier write's invalidation is
 * still on its way to B), {@code samples} per pair after twice as many unrecorded (and as many in a first pass over
 * every pair); a sample B has not seen after {@value #DEADLINE_MS} ms is counted as lost.
 */
final class NearInvalidation {

    static final String FIELD = "near_invalidation";
    static final int SAMPLES = 1_000;
    /*
     * Unrecorded samples per measured one, run twice for each pair: in a first pass over all pairs, then right
     * before its samples. With 200 before each pair alone, the JIT was still compiling while the pair was measured:
     * the C2 thread spent 1.5-2.2 s of CPU in a 1,000-sample window, on one of the two cores, and every row's p99
     * (the floor's too: 2.5-3.2 ms when it ran first) was that compile, not the invalidation; the same pairs
     * measured again in the same JVM gave p99 0.2-0.8 ms.
     */
    static final int WARM_UP_PER_SAMPLE = 2;
    static final long DEADLINE_MS = 1_000;
    // B is polled every 10 µs (the kernel rounds a park up to about 50 µs): a spinning poller took one of the two
    // cores from the event loop that has to handle the push, and measured its own interference at p99.
    static final long POLL_NANOS = 10_000;

    /**
     * Two instances of one cache with a near cache. {@link #hold} and {@link #servesOld} are B's, {@link #write} is
     * A's (or a foreign client's); a product's {@code stock} is its revision ({@link Products#revision}), so an old
     * copy is told from a new one. The key is new to both when {@link #hold} is called.
     */
    interface Pair extends AutoCloseable {

        /** The revision B holds. */
        int OLD = 0;
        /** The revision A writes. */
        int NEW = 1;

        /** The row's name, e.g. {@code redkit-near-tracking}. */
        String name();

        /** Who writes and how, for the table. */
        String writer();

        void setup(BenchEnv env) throws Exception;

        /** Makes B hold a near copy of {@code id} at revision {@link #OLD}, with no invalidation on its way to B. */
        void hold(Integer id) throws Exception;

        /** A's write of revision {@link #NEW} (for redkit: the source's change, then what tells the others). */
        void write(Integer id) throws Exception;

        /**
         * Whether B still answers {@code id} with its near copy at revision {@link #OLD}. It must not go to Redis
         * while it does; once the copy is gone it may (the time has stopped at the start of this read).
         */
        boolean servesOld(Integer id) throws Exception;

        @Override
        void close();
    }

    /**
     * The figures of one pair: the samples measured and lost, and the measured ones' percentiles (the least is the
     * floor: a write's round trip and the message to B).
     */
    record Figures(String impl, String writer, int measured, int lost, double minUs, double p50Us, double p99Us,
            double maxUs) {
    }

    /** The JSON of the extra: {@code near_invalidation}. */
    record Report(int samples, int warmUp, long deadlineMs, String measured, List<Figures> rows) {
    }

    private NearInvalidation() {
    }

    /** Runs every pair (set up here, closed after) and returns the figures as an extra with a latency per pair. */
    static Benchmark.Extra run(BenchEnv env, List<Pair> pairs, int samples) throws Exception {
        int warmUp = WARM_UP_PER_SAMPLE * samples;
        List<Figures> figures = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        List<Benchmark.Latency> latencies = new ArrayList<>();
        for (Pair pair : pairs) {
            // Every pair once before any is measured: the paths the pairs share are compiled by then, not in
            // whichever pair comes first.
            try (pair) {
                pair.setup(env);
                measure(pair, warmUp, null);
            }
        }
        for (Pair pair : pairs) {
            try (pair) {
                pair.setup(env);
                measure(pair, warmUp, null);
                Histogram h = new Histogram(1, TimeUnit.MILLISECONDS.toNanos(DEADLINE_MS), 3);
                int lost = measure(pair, samples, h);
                Figures f = new Figures(pair.name(), pair.writer(), (int) h.getTotalCount(), lost, us(h.getMinValue()),
                        us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(99)), us(h.getMaxValue()));
                figures.add(f);
                latencies.add(new Benchmark.Latency(FIELD, f.impl(), 1, f.p50Us(), f.p99Us(), f.maxUs()));
                rows.add(List.of(f.impl(), f.writer(), String.valueOf(f.measured()), String.valueOf(f.lost()),
                        format(f.minUs()), format(f.p50Us()), format(f.p99Us()), format(f.maxUs())));
            }
        }
        String measured = "from just before A's write is sent to the start of the first read of B's near copy that"
                + " no longer answers with the old value (B's near cache polled every 10 µs, without Redis while the"
                + " copy is there)";
        String title = String.format(Locale.ROOT, "near-cache invalidation: A writes, B's near copy dropped (%d"
                + " samples each, one at a time, after %d of warm-up, and as many for every pair before; %s)", samples,
                warmUp, measured);
        return new Benchmark.Extra(FIELD, title, List.of("impl", "writer", "measured", "lost", "min µs", "p50 µs",
                "p99 µs", "max µs"), rows, new Report(samples, warmUp, DEADLINE_MS, measured, figures), latencies);
    }

    /** {@code n} samples, each recorded in {@code into} unless it is null (warm-up); returns how many were lost. */
    private static int measure(Pair pair, int n, Histogram into) throws Exception {
        int lost = 0;
        long deadline = TimeUnit.MILLISECONDS.toNanos(DEADLINE_MS);
        int first = 10_000_000 + ThreadLocalRandom.current().nextInt(1_000_000_000);
        for (int i = 0; i < n; i++) {
            Integer id = first + i;
            pair.hold(id);
            long sent = System.nanoTime();
            pair.write(id);
            long seen;
            while (true) {
                long at = System.nanoTime();
                if (!pair.servesOld(id)) {
                    seen = at - sent;
                    break;
                }
                if (at - sent > deadline) {
                    seen = -1;
                    break;
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
            if (seen < 0) {
                lost++;
            } else if (into != null) {
                into.recordValue(Math.max(1, seen));
            }
        }
        return lost;
    }

    private static double us(long nanos) {
        return Math.round(nanos / 100.0) / 10.0;
    }

    private static String format(double us) {
        return String.format(Locale.ROOT, us < 100 ? "%.1f" : "%,.0f", us);
    }
}
