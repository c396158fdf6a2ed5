package io.redkit.lab.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.redkit.lab.bench.BenchReport.AimResult;
import io.redkit.lab.bench.BenchReport.CeilingRow;
import io.redkit.lab.bench.BenchReport.Row;

/** A report as table cells, shared by the plain-text table on stdout and the Markdown written for the README. */
final class BenchTables {

    private static final String[] HEADER = {"op", "callers", "impl", "ops/s (median)", "min–max", "p50 µs",
        "p99 µs", "B/op", "CPU µs/op", "SUBJECT/this"};

    private BenchTables() {
    }

    /** The column names; the last is the subject's throughput over this row's (median of per-round ratios). */
    static String[] header(BenchReport report) {
        String[] header = HEADER.clone();
        String subject = report.rows().isEmpty() ? "subject" : report.rows().get(0).impl();
        header[header.length - 1] = subject + "/this";
        return header;
    }

    /** One line per contender and caller count, with redis-benchmark's line after each caller count. */
    static String[][] cells(BenchReport report) {
        List<String[]> lines = new ArrayList<>();
        for (String op : report.ops()) {
            for (int callers : report.settings().callers()) {
                List<Row> rows = report.rows().stream().filter(r -> r.op().equals(op) && r.callers() == callers)
                        .toList();
                if (rows.isEmpty()) {
                    continue;
                }
                Row first = rows.get(0);
                double subject = first.opsPerS();
                for (Row r : rows) {
                    lines.add(new String[] {op, String.valueOf(callers), r.impl() + (r.errors() > 0 ? " ("
                            + r.errors() + " errors)" : ""), ops(r.opsPerS()), ops(r.opsPerSMin()) + "–"
                            + ops(r.opsPerSMax()), us(r.p50Us()), us(r.p99Us()), bytes(r.allocBytesPerOp()),
                            cpu(r.cpuUsPerOp()), r == first ? "1.00×"
                            : ratio(Ratios.paired(first, r))});
                }
                for (CeilingRow c : report.ceiling().rows()) {
                    if (c.op().equals(op) && c.callers() == callers) {
                        lines.add(new String[] {op, String.valueOf(callers), RedisBenchmarkTool.NAME + " (ceiling)",
                            ops(c.opsPerS()), "one run", us(c.p50Us()), us(c.p99Us()), "", "",
                            ratio(subject / c.opsPerS())});
                    }
                }
            }
        }
        return lines.toArray(new String[0][]);
    }

    /** The lines under the table: how it was run, the ceiling, the aims. */
    static List<String> notes(BenchReport report) {
        List<String> notes = new ArrayList<>();
        BenchReport.Settings s = report.settings();
        notes.add(String.format(Locale.ROOT, "%s; %d rounds of %d ms per contender and caller count, interleaved,"
                + " after a %d ms warm-up; %d cores, %s; load average %s before, %s after; %s, %d s.",
                report.target(), s.rounds(), s.roundMs(), s.warmupMs(), report.machine().cores(),
                report.machine().java(), report.machine().loadAverageStart(), report.machine().loadAverageEnd(),
                report.startedAt(), report.elapsedMs() / 1000));
        if (!report.ceiling().available() || report.ceiling().reason() != null) {
            notes.add("ceiling: " + (report.ceiling().available() ? "partial, " : "unavailable, ")
                    + report.ceiling().reason());
        } else {
            boolean steps = report.ceiling().rows().stream().anyMatch(r -> r.command().contains(" + "));
            notes.add("ceiling: " + report.ceiling().tool() + ", one connection per caller, -P 1"
                    + (steps ? "; an op of several round trips is one run per step, combined as the server's time for"
                            + " all of them: rate 1/Σ(1/rateᵢ), p50s and p99s added" : ""));
        }
        notes.add("B/op and CPU µs/op: what the whole lab process allocated (every live thread: callers, Lettuce and"
                + " Netty, the library's own) and spent in CPU (GC and JIT included; redis-server not) over the"
                + " measured rounds, per call");
        for (AimResult aim : report.aims()) {
            notes.add(String.format(Locale.ROOT, "aim %s %s: %s (%s)", aim.ratio(), aim.bound(),
                    aim.value() == null ? "not measured" : String.format(Locale.ROOT, "%.3f", aim.value()),
                    aim.met() ? "met" : "NOT met"));
        }
        for (Map.Entry<String, String> peer : report.peers().entrySet()) {
            notes.add("peer " + peer.getKey() + ": " + peer.getValue());
        }
        return notes;
    }

    /** The report as a Markdown block: a title line, the table, the notes. */
    static String markdown(BenchReport report, String chartLink) {
        StringBuilder md = new StringBuilder();
        md.append("**bench ").append(report.bench()).append("** — ").append(report.description()).append(".\n\n");
        md.append("`").append(report.command()).append("`\n\n");
        md.append('|');
        for (String h : header(report)) {
            md.append(' ').append(h).append(" |");
        }
        md.append("\n|");
        for (int i = 0; i < HEADER.length; i++) {
            md.append(i < 3 ? "---|" : "---:|");
        }
        md.append('\n');
        for (String[] line : cells(report)) {
            md.append('|');
            for (String cell : line) {
                md.append(' ').append(cell.replace("|", "\\|")).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        for (String note : notes(report)) {
            md.append("- ").append(note).append('\n');
        }
        for (Benchmark.Extra extra : report.extras()) {
            md.append("\n**").append(extra.title()).append("**\n\n|");
            extra.header().forEach(h -> md.append(' ').append(h).append(" |"));
            md.append("\n|");
            for (int i = 0; i < extra.header().size(); i++) {
                int column = i;
                boolean numeric = extra.rows().stream().allMatch(r -> r.get(column).matches("[0-9][0-9,./]*"));
                md.append(numeric ? "---:|" : "---|");
            }
            md.append('\n');
            for (List<String> line : extra.rows()) {
                md.append('|');
                line.forEach(cell -> md.append(' ').append(cell.replace("|", "\\|")).append(" |"));
                md.append('\n');
            }
        }
        if (chartLink != null) {
            md.append("\n![bench ").append(report.bench()).append("](").append(chartLink).append(")\n");
        }
        return md.toString();
    }

    /** An extra's rows as plain-text table cells. */
    static String[][] cells(Benchmark.Extra extra) {
        return extra.rows().stream().map(r -> r.toArray(new String[0])).toArray(String[][]::new);
    }

    static String ops(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    static String us(double v) {
        return String.format(Locale.ROOT, v < 100 ? "%.1f" : "%,.0f", v);
    }

    static String bytes(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
    }

    static String cpu(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, v < 10 ? "%.2f" : "%,.1f", v);
    }

    static String ratio(double v) {
        return String.format(Locale.ROOT, "%.2f×", v);
    }
}
