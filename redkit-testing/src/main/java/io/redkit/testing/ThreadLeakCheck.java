package io.redkit.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Fails tests that leave a thread running: a {@code Redkit}, store, worker or scheduler made and never closed,
 * whose work would reach the servers while the next test counts what they ran.
 *
 * <p>The extensions take a {@link #snapshot()} before a test class and before each test method. After a method
 * they note which threads it started ({@link #startedSince()}), without waiting: a client the class made in
 * {@code @BeforeAll} may start a thread lazily inside whichever test first needs it, and that thread ends with
 * the class. After the class (its {@code @AfterAll} methods and the server closed) they {@link #verify} the
 * class snapshot: a thread still alive after a grace (Netty's event loops end a moment after {@code close()}
 * returns) fails the class, named with the test that started it. An extension that lives for one method only
 * verifies right after it. Pools of the JVM itself, which no test owns, are not counted, nor is an idle worker
 * of a pool that ends its threads at a keep-alive (a cached pool's): it runs nothing, so it cannot reach a
 * server, and it ends by itself. A worker waiting in a fixed or scheduled pool's queue is counted: that pool
 * runs what is given to it until someone shuts it down.
 */
public final class ThreadLeakCheck {

    /** How long threads that are ending are waited for. */
    static final Duration GRACE = Duration.ofSeconds(5);

    // Threads of the JDK and of process-wide pools, started lazily by whoever first needs them and never stopped.
    private static final List<String> JVM_WIDE = List.of("ForkJoinPool.commonPool-worker-", "process reaper",
            "Common-Cleaner", "Attach Listener", "Signal Dispatcher", "Reference Handler", "Finalizer",
            "Notification Thread", "surefire-forkedjvm-", "JFR ", "Keep-Alive-Timer", "Keep-Alive-SocketCleaner",
            "InnocuousThread-", "junit-jupiter-timeout-watcher", "HttpClient-", "idle-connection-reaper",
            // java.lang.ref.Cleaner threads of libraries' static cleaners (the JDBC driver's among them).
            "PostgreSQL-JDBC-Cleaner", "Cleaner-",
            // The virtual-thread scheduler's helpers (its carriers are told apart by their class, below).
            "VirtualThread-unblocker", "ForkJoinPool-1-delayScheduler",
            // Netty's one process-wide executor: it runs a task of whoever asks and ends itself a second after the last.
            "globalEventExecutor-",
            // Reactor's shared schedulers (Lettuce's reactive API and timeouts): one per JVM, never shut down.
            "parallel-", "boundedElastic-");
    private static final String CARRIER_THREAD = "jdk.internal.misc.CarrierThread";

    private final Set<Thread> before;

    private ThreadLeakCheck(Set<Thread> before) {
        this.before = before;
    }

    /** Records the threads alive now. */
    public static ThreadLeakCheck snapshot() {
        return new ThreadLeakCheck(Thread.getAllStackTraces().keySet());
    }

    /** Returns the threads alive now that were not at the snapshot, those of the JVM's own pools left out. */
    public List<Thread> startedSince() {
        List<Thread> started = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.isAlive() && !before.contains(thread) && !jvmWide(thread) && !idlePoolWorker(thread)) {
                started.add(thread);
            }
        }
        started.sort(Comparator.comparing(Thread::getName));
        return started;
    }

    /** {@link #verify(String, Map)} with nothing known of who started what. */
    public void verify(String what) {
        verify(what, Map.of());
    }

    /**
     * Waits up to {@link #GRACE} for the threads started since the snapshot to end, then fails naming those
     * still alive.
     *
     * @param what the test or class that ran since the snapshot, for the message
     * @param startedBy the test method each known thread was first seen after
     * @throws AssertionError when a thread outlives the grace
     */
    public void verify(String what, Map<Thread, String> startedBy) {
        long deadline = System.nanoTime() + GRACE.toNanos();
        List<Thread> leaked = startedSince();
        while (!leaked.isEmpty() && System.nanoTime() - deadline < 0) {
            try {
                leaked.get(0).join(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            leaked = startedSince();
        }
        if (!leaked.isEmpty()) {
            throw new AssertionError(what + " left " + leaked.size() + " thread(s) running " + GRACE.toSeconds()
                    + " s after it ended; close every Redkit, store, worker and executor a test makes:\n"
                    + describe(leaked, startedBy));
        }
    }

    static boolean jvmWide(Thread thread) {
        return thread.getClass().getName().equals(CARRIER_THREAD) || jvmWide(thread.getName());
    }

    /**
     * Whether the thread is a pool worker waiting, with a timeout, for a task it will not get: the stack of
     * {@code ThreadPoolExecutor.getTask} polling its queue. Seen in a clean clone's CI: seven such workers of
     * an unnamed cached pool ("Thread-2".."Thread-8"), started by a library while a class closed, failed a class
     * that had leaked nothing; they ended 60 s later.
     */
    static boolean idlePoolWorker(Thread thread) {
        if (thread.getState() != Thread.State.TIMED_WAITING) {
            return false;
        }
        StackTraceElement[] stack = thread.getStackTrace();
        for (int i = 1; i < stack.length; i++) {
            if (stack[i].getClassName().equals("java.util.concurrent.ThreadPoolExecutor")
                    && stack[i].getMethodName().equals("getTask")) {
                return stack[i - 1].getMethodName().equals("poll");
            }
        }
        return false;
    }

    static boolean jvmWide(String name) {
        return JVM_WIDE.stream().anyMatch(name::startsWith);
    }

    private static String describe(List<Thread> threads, Map<Thread, String> startedBy) {
        Map<Thread, StackTraceElement[]> stacks = Thread.getAllStackTraces();
        return threads.stream().map(t -> {
            StackTraceElement[] stack = stacks.getOrDefault(t, new StackTraceElement[0]);
            StringBuilder s = new StringBuilder("  \"" + t.getName() + "\"" + (t.isDaemon() ? " daemon" : ""));
            String test = startedBy.get(t);
            if (test != null) {
                s.append(", started during ").append(test);
            }
            for (int i = 0; i < Math.min(stack.length, 8); i++) {
                s.append("\n      at ").append(stack[i]);
            }
            return s.toString();
        }).collect(Collectors.joining("\n"));
    }
}
