package io.redkit.limit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The oracle of the exactness tests: replays a run's decisions, in server order and at the server's microseconds,
 * through a plain Java model of the algorithm (one permit per call), and counts where the limiter and the model
 * disagree. An allowance the model refuses is over-admission; a refusal the model allows is under-admission.
 */
final class Replay {

    /** Disagreements with the model, and what was decided. */
    record Counts(long decisions, long allowed, long over, long under) {
    }

    private Replay() {
    }

    static Counts of(Limit limit, List<Hammer.Sample> samples) {
        Model model = switch (limit.algorithm()) {
            case FIXED_WINDOW -> new FixedWindow(limit);
            case SLIDING_LOG -> new SlidingLog(limit);
            case SLIDING_COUNTER -> new SlidingCounter(limit);
            case GCRA -> new Gcra(limit);
        };
        long allowed = 0;
        long over = 0;
        long under = 0;
        for (Hammer.Sample s : samples) {
            boolean fits = model.fits(s.micros());
            if (s.allowed()) {
                allowed++;
                over += fits ? 0 : 1;
                model.take(s.micros());
            } else {
                under += fits ? 1 : 0;
            }
        }
        return new Counts(samples.size(), allowed, over, under);
    }

    /** The most allowed decisions in any span of {@code micros} (a permit counts while now - t < micros). */
    static long mostInAnySpan(List<Hammer.Sample> samples, long micros) {
        long[] t = samples.stream().filter(Hammer.Sample::allowed).mapToLong(Hammer.Sample::micros).toArray();
        long most = 0;
        for (int i = 0, j = 0; j < t.length; j++) {
            while (t[j] - t[i] >= micros) {
                i++;
            }
            most = Math.max(most, j - i + 1);
        }
        return most;
    }

    /** The longest time between two consecutive decisions: how long the callers stalled at worst. */
    static long longestPause(List<Hammer.Sample> samples) {
        long longest = 0;
        for (int i = 1; i < samples.size(); i++) {
            longest = Math.max(longest, samples.get(i).micros() - samples.get(i - 1).micros());
        }
        return longest;
    }

    /** Allowed decisions per window of {@code micros} aligned to the epoch. */
    static Map<Long, Long> allowedPerWindow(List<Hammer.Sample> samples, long micros) {
        Map<Long, Long> perWindow = new HashMap<>();
        samples.stream().filter(Hammer.Sample::allowed)
                .forEach(s -> perWindow.merge(s.micros() / micros, 1L, Long::sum));
        return perWindow;
    }

    private interface Model {
        boolean fits(long now);

        void take(long now);
    }

    private static long micros(Limit limit) {
        return limit.period().toNanos() / 1000;
    }

    private static final class FixedWindow implements Model {
        private final long length;
        private final long cap;
        private long window = -1;
        private long count;

        FixedWindow(Limit limit) {
            this.length = micros(limit);
            this.cap = limit.permits();
        }

        private void roll(long now) {
            if (now / length != window) {
                window = now / length;
                count = 0;
            }
        }

        @Override
        public boolean fits(long now) {
            roll(now);
            return count + 1 <= cap;
        }

        @Override
        public void take(long now) {
            roll(now);
            count++;
        }
    }

    private static final class SlidingLog implements Model {
        private final long length;
        private final long cap;
        private final java.util.ArrayDeque<Long> log = new java.util.ArrayDeque<>();

        SlidingLog(Limit limit) {
            this.length = micros(limit);
            this.cap = limit.permits();
        }

        @Override
        public boolean fits(long now) {
            while (!log.isEmpty() && log.peekFirst() <= now - length) {
                log.pollFirst();
            }
            return log.size() + 1 <= cap;
        }

        @Override
        public void take(long now) {
            log.addLast(now);
        }
    }

    /** As sliding-counter.lua: elapsed in whole ms, both sides of the comparison times the window in ms. */
    private static final class SlidingCounter implements Model {
        private final long ms;
        private final long cap;
        private long window = Long.MIN_VALUE;
        private long current;
        private long previous;

        SlidingCounter(Limit limit) {
            this.ms = limit.period().toMillis();
            this.cap = limit.permits();
        }

        private void roll(long now) {
            long w = now / (ms * 1000);
            if (w == window) {
                return;
            }
            previous = w == window + 1 ? current : 0;
            current = 0;
            window = w;
        }

        @Override
        public boolean fits(long now) {
            roll(now);
            long elapsed = (now - window * ms * 1000) / 1000;
            return previous * (ms - elapsed) + (current + 1) * ms <= cap * ms;
        }

        @Override
        public void take(long now) {
            roll(now);
            current++;
        }
    }

    /** GCRA in whole numbers: times scaled by the permits, so the emission interval is the period in µs. */
    private static final class Gcra implements Model {
        private final long period;
        private final long permits;
        private final long burst;
        private long tat = Long.MIN_VALUE;

        Gcra(Limit limit) {
            this.period = micros(limit);
            this.permits = limit.permits();
            this.burst = limit.capacity();
        }

        @Override
        public boolean fits(long now) {
            return Math.max(tat, now * permits) + period - now * permits <= burst * period;
        }

        @Override
        public void take(long now) {
            tat = Math.max(tat, now * permits) + period;
        }
    }
}
