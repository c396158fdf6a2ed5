package io.redkit.lab.cache;

import java.io.PrintWriter;

import io.redkit.lab.Output;
import io.redkit.lab.cache.BigValueRun.BigValue;
import io.redkit.lab.cache.BigValueRun.Phase;
import io.redkit.lab.cache.HotKeyLab.HotPhase;
import io.redkit.lab.cache.HotKeyLab.Report;
import io.redkit.lab.cache.HotKeyLab.Settings;

/** {@code lab hot-key}'s readable output: two tables, and what each figure means, one line each. */
final class HotKeyTables {

    private HotKeyTables() {
    }

    static void print(PrintWriter out, Report report) {
        Settings s = report.settings();
        out.println("lab hot-key — " + report.redis());
        Output.table(out, "(a) one key read by " + s.callers() + " callers, " + s.durationMs() + " ms per phase after "
                + s.warmupMs() + " ms of warm-up", new String[] {"phase", "reads/s", "p50 ms", "p99 ms",
                    "GETs to Redis", "near hits", "server CPU s", "server CPU s / 1M reads", "lab CPU s", "errors"},
                new String[][] {
                    hot("redis only", report.hotKey().redisOnly()),
                    hot("near cache (" + s.nearCacheSize() + " entries, " + s.nearCacheTtlMs() + " ms)",
                            report.hotKey().nearCache())});
        out.println("  reads/s: cache.get calls completed per second by all callers together (closed loop)");
        out.println("  p50/p99 ms: one cache.get as its caller timed it");
        out.println("  GETs to Redis: cmdstat_get calls in the server's INFO commandstats over the phase");
        out.println("  near hits: reads the near cache answered without Redis");
        out.println("  server CPU s: redis-server's used_cpu_sys + used_cpu_user (INFO cpu) over the phase");
        out.println("  lab CPU s: this JVM's CPU over the phase (callers, Lettuce, GC): the same two cores");
        out.println();
        BigValue b = report.bigValue();
        Output.table(out, "(b) " + b.smallCallers() + " callers GET " + b.smallKeys() + " small keys while one"
                + " caller reads a " + b.valueBytes() + "-byte value in a loop, " + s.bigDurationMs() + " ms per phase",
                new String[] {"phase", "small reads/s", "small p50 ms", "small p99 ms", "big reads/s", "loads",
                    "server CPU s", "lab CPU s", "errors"}, new String[][] {
                        big("without the big reader", b.phases().without()),
                        big("with it (raw GET)", b.phases().with()),
                        big("with policy " + b.policy().name() + " above " + b.policy().maxValueBytes() + " B",
                                b.phases().withPolicy()),
                        big("with compression", b.phases().withCompression())});
        out.println("  small p99 ms: one GET of a 100-byte key as its caller timed it, the figure part (b) is about");
        out.println("  big reads/s: the one big caller's reads completed per second");
        out.println("  loads: the cache's loader calls over the phase (a value not stored is loaded every read)");
        out.println("  policy " + b.policy().name() + ": " + b.policy().what() + "; in Redis: "
                + (b.policy().storedBytes() == null ? "nothing" : b.policy().storedBytes() + " bytes"));
        out.println("  compression: " + b.compression().what() + "; in Redis: " + b.compression().storedBytes()
                + " bytes");
    }

    private static String[] hot(String name, HotPhase p) {
        return new String[] {name, fmt(p.readsPerSecond()), fmt(p.p50Ms()), fmt(p.p99Ms()),
            String.valueOf(p.redisGets()), String.valueOf(p.nearHits()), fmt(p.serverCpuSeconds()),
            fmt(p.serverCpuSecondsPerMillionReads()), fmt(p.labCpuSeconds()), errors(p.errors(), p.firstError())};
    }

    private static String[] big(String name, Phase p) {
        return new String[] {name, fmt(p.smallReadsPerSecond()), fmt(p.smallP50Ms()), fmt(p.smallP99Ms()),
            fmt(p.bigReadsPerSecond()), p.loads() == null ? "-" : String.valueOf(p.loads()),
            fmt(p.serverCpuSeconds()), fmt(p.labCpuSeconds()),
            errors(p.smallErrors() + p.bigErrors(), p.firstError())};
    }

    private static String errors(long errors, String first) {
        return errors == 0 ? "0" : errors + " (" + first + ")";
    }

    private static String fmt(Double value) {
        if (value == null) {
            return "-";
        }
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf(value.longValue())
                : String.valueOf(value);
    }
}
