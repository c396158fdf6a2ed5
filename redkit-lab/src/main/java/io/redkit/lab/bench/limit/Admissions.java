package io.redkit.lab.bench.limit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Counts a contender's allowed decisions on the hot key against what its limit permits, without a shared write on
 * the call path: each caller thread keeps its own runs of calls (a pause of more than {@link #GAP_NANOS} starts a
 * new run), and afterwards the runs of all callers are merged into stretches, one per round or warm-up. Every
 * decision of a stretch was made between its first call's start and its last call's end, so what the limit
 * permits over that span is a bound no correct limiter exceeds; allowed decisions beyond it are over-admission.
 */
final class Admissions {

    /** Rounds of one contender are separated by the other contenders' rounds, far longer than this. */
    static final long GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** What a limit permits over a stretch. */
    interface Rule {
        /**
         * The most allowed decisions a correct limiter gives in a stretch of {@code nanos} on the client's clock,
         * whose decisions the server stamped from {@code firstMicros} to {@code lastMicros} (-1 when unknown).
         */
        long permitted(long nanos, long firstMicros, long lastMicros);

        /** The rule, for the table. */
        String describe();
    }

    /** One caller-count's total: decisions, allowed, permitted and over-admitted. */
    record Total(int callers, long stretches, long decisions, long allowed, long permitted, long over) {
    }

    private final Rule rule;
    private final Slot[] slots = new Slot[1024];

    Admissions(Rule rule) {
        this.rule = rule;
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot(i);
        }
    }

    Rule rule() {
        return rule;
    }

    /** Records one call of caller {@code caller}; only that caller's thread calls this for its slot. */
    void record(int caller, long start, long end, boolean allowed, long serverMicros) {
        slots[caller].record(start, end, allowed, serverMicros);
    }

    /** Totals per caller count, from the stretches of every caller's runs. */
    List<Total> totals() {
        List<Run> runs = new ArrayList<>();
        for (Slot s : slots) {
            s.close();
            runs.addAll(s.runs);
        }
        runs.sort(Comparator.comparingLong(Run::start));
        Map<Integer, Total> byCallers = new LinkedHashMap<>();
        Run stretch = null;
        for (Run r : runs) {
            if (stretch != null && r.start() - stretch.end() <= GAP_NANOS) {
                stretch = stretch.merge(r);
                continue;
            }
            add(byCallers, stretch);
            stretch = r;
        }
        add(byCallers, stretch);
        return List.copyOf(byCallers.values());
    }

    private void add(Map<Integer, Total> byCallers, Run s) {
        if (s == null) {
            return;
        }
        long permitted = rule.permitted(s.end() - s.start(), s.firstMicros(), s.lastMicros());
        long over = Math.max(0, s.allowed() - permitted);
        byCallers.merge(s.callers(), new Total(s.callers(), 1, s.calls(), s.allowed(), permitted, over),
                (a, b) -> new Total(a.callers(), a.stretches() + 1, a.decisions() + b.decisions(),
                        a.allowed() + b.allowed(), a.permitted() + b.permitted(), a.over() + b.over()));
    }

    /** A run of calls; merged across callers, a stretch ({@code callers}: the highest caller number + 1). */
    record Run(int callers, long start, long end, long calls, long allowed, long firstMicros, long lastMicros) {
        Run merge(Run o) {
            return new Run(Math.max(callers, o.callers), Math.min(start, o.start), Math.max(end, o.end),
                    calls + o.calls, allowed + o.allowed, min(firstMicros, o.firstMicros),
                    Math.max(lastMicros, o.lastMicros));
        }

        private static long min(long a, long b) {
            return a < 0 ? b : b < 0 ? a : Math.min(a, b);
        }
    }

    private static final class Slot {
        private final int caller;
        private final List<Run> runs = new ArrayList<>();
        private long start = -1;
        private long end;
        private long calls;
        private long allowed;
        private long firstMicros = -1;
        private long lastMicros = -1;

        Slot(int caller) {
            this.caller = caller;
        }

        void record(long callStart, long callEnd, boolean wasAllowed, long serverMicros) {
            if (start >= 0 && callStart - end > GAP_NANOS) {
                close();
            }
            if (start < 0) {
                start = callStart;
            }
            end = callEnd;
            calls++;
            allowed += wasAllowed ? 1 : 0;
            if (serverMicros >= 0) {
                firstMicros = firstMicros < 0 ? serverMicros : Math.min(firstMicros, serverMicros);
                lastMicros = Math.max(lastMicros, serverMicros);
            }
        }

        void close() {
            if (start >= 0) {
                runs.add(new Run(caller + 1, start, end, calls, allowed, firstMicros, lastMicros));
            }
            start = -1;
            calls = 0;
            allowed = 0;
            firstMicros = -1;
            lastMicros = -1;
        }
    }
}
