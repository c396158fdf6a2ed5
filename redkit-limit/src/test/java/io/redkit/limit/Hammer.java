package io.redkit.limit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Many callers asking one limiter for one subject as fast as they can, each decision kept with its server time. */
final class Hammer {

    /** One decision: the server's microsecond, and the answer. */
    record Sample(long micros, boolean allowed, Decision.Basis basis) {
        static Sample of(Decision d) {
            long micros = d.decidedAt().getEpochSecond() * 1_000_000 + d.decidedAt().getNano() / 1000;
            return new Sample(micros, d.allowed(), d.basis());
        }
    }

    private Hammer() {
    }

    /**
     * Runs {@code callers} threads against {@code subject} for {@code duration} and returns every decision in
     * server order; at one microsecond, allowed ones first (a refusal and an allowance at the same microsecond
     * can only have come in that order: the refusal would have seen the same state).
     */
    static List<Sample> run(RateLimiter limiter, String subject, int callers, Duration duration) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            CountDownLatch ready = new CountDownLatch(callers);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<Sample>>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                futures.add(pool.submit(() -> {
                    List<Sample> mine = new ArrayList<>();
                    ready.countDown();
                    go.await();
                    long end = System.nanoTime() + duration.toNanos();
                    while (System.nanoTime() < end) {
                        mine.add(Sample.of(limiter.tryAcquire(subject)));
                    }
                    return mine;
                }));
            }
            ready.await();
            go.countDown();
            List<Sample> all = new ArrayList<>();
            for (Future<List<Sample>> f : futures) {
                all.addAll(f.get(duration.toMillis() + 60_000, TimeUnit.MILLISECONDS));
            }
            all.sort(Comparator.comparingLong(Sample::micros).thenComparing(s -> !s.allowed()));
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
