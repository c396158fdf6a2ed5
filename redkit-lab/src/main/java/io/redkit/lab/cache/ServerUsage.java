package io.redkit.lab.cache;

import java.util.OptionalDouble;

import io.redkit.lab.Target;

/**
 * What redis-server says it has spent so far: CPU seconds ({@code INFO cpu}: {@code used_cpu_sys} +
 * {@code used_cpu_user}, all its threads) and GET commands executed ({@code INFO commandstats}). The difference
 * between two snapshots is what a phase cost the server; on a server the lab did not start it also counts other
 * clients' work.
 *
 * @param cpuSeconds the server's CPU seconds since it started
 * @param gets GET commands it has executed since it started (or since {@code CONFIG RESETSTAT})
 */
record ServerUsage(double cpuSeconds, long gets) {

    /** Reads both counters now, with two INFO calls (each counted by the server too: negligible). */
    static ServerUsage of(Target target) {
        String cpu = target.info("cpu");
        double seconds = field(cpu, "used_cpu_sys").orElseThrow(() -> missing("used_cpu_sys", cpu))
                + field(cpu, "used_cpu_user").orElseThrow(() -> missing("used_cpu_user", cpu));
        return new ServerUsage(seconds, gets(target.info("commandstats")));
    }

    /** What was spent from {@code earlier} to this snapshot. */
    ServerUsage since(ServerUsage earlier) {
        return new ServerUsage(Math.max(0, cpuSeconds - earlier.cpuSeconds), gets - earlier.gets);
    }

    /** {@code field:value} in an INFO reply, as a number. */
    private static OptionalDouble field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return OptionalDouble.of(Double.parseDouble(line.substring(name.length() + 1).trim()));
            }
        }
        return OptionalDouble.empty();
    }

    /** {@code calls} of {@code cmdstat_get:calls=N,usec=…}; 0 when the server has run no GET yet. */
    private static long gets(String commandStats) {
        for (String line : commandStats.split("\r?\n")) {
            if (line.startsWith("cmdstat_get:")) {
                for (String pair : line.substring("cmdstat_get:".length()).trim().split(",")) {
                    if (pair.startsWith("calls=")) {
                        return Long.parseLong(pair.substring("calls=".length()));
                    }
                }
            }
        }
        return 0;
    }

    private static IllegalStateException missing(String field, String info) {
        return new IllegalStateException("INFO cpu has no " + field + ": " + info);
    }
}
