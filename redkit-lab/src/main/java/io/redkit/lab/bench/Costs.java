package io.redkit.lab.bench;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * What the whole lab process spends over a stretch of time: bytes allocated by every live Java thread (the
 * callers, Lettuce's and Netty's event loops, each library's own schedulers) and the process's CPU time (the same
 * threads plus the JVM's own: GC, JIT). redis-server is another process and is not counted; a thread that ends
 * within the stretch loses what it allocated, one that starts within it counts from zero.
 */
final class Costs {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private Costs() {
    }

    /** Each live thread's allocated bytes so far, and the process's CPU nanoseconds (-1 where unsupported). */
    record Snapshot(Map<Long, Long> allocated, long cpuNanos) {
    }

    /** Bytes allocated and CPU nanoseconds spent between two snapshots; -1 when the JVM cannot tell. */
    record Spent(long allocatedBytes, long cpuNanos) {

        static final Spent NONE = new Spent(0, 0);

        /** The sum of two stretches; unknown (-1) stays unknown. */
        Spent plus(Spent other) {
            return new Spent(add(allocatedBytes, other.allocatedBytes), add(cpuNanos, other.cpuNanos));
        }

        /** Bytes per op, or null when unknown or no op ran. */
        Double bytesPerOp(long ops) {
            return ops <= 0 || allocatedBytes < 0 ? null : (double) Math.round((double) allocatedBytes / ops);
        }

        /** CPU µs per op to 0.01 µs, or null when unknown or no op ran. */
        Double cpuMicrosPerOp(long ops) {
            return ops <= 0 || cpuNanos < 0 ? null : Math.round(cpuNanos / 10.0 / ops) / 100.0;
        }

        private static long add(long a, long b) {
            return a < 0 || b < 0 ? -1 : a + b;
        }
    }

    /** Now; turns on allocation accounting where it is off. */
    static Snapshot now() {
        if (!THREADS.isThreadAllocatedMemorySupported()) {
            return new Snapshot(null, OS.getProcessCpuTime());
        }
        if (!THREADS.isThreadAllocatedMemoryEnabled()) {
            THREADS.setThreadAllocatedMemoryEnabled(true);
        }
        long[] ids = THREADS.getAllThreadIds();
        long[] bytes = THREADS.getThreadAllocatedBytes(ids);
        Map<Long, Long> allocated = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) {
                allocated.put(ids[i], bytes[i]);
            }
        }
        return new Snapshot(allocated, OS.getProcessCpuTime());
    }

    /** What was spent from {@code before} to {@code after}. */
    static Spent between(Snapshot before, Snapshot after) {
        long bytes = -1;
        if (before.allocated() != null && after.allocated() != null) {
            bytes = 0;
            for (Map.Entry<Long, Long> t : after.allocated().entrySet()) {
                bytes += t.getValue() - before.allocated().getOrDefault(t.getKey(), 0L);
            }
        }
        long cpu = before.cpuNanos() < 0 || after.cpuNanos() < 0 ? -1 : after.cpuNanos() - before.cpuNanos();
        return new Spent(bytes, cpu);
    }
}
