package io.redkit.demo;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The single-thread schedulers of the service's background loops (the report job, the outbox relay). */
final class Schedulers {

    /** A scheduler on one daemon thread named {@code threadName}, so that a loop never holds the JVM open. */
    static ScheduledExecutorService daemon(String threadName) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    private Schedulers() {
    }
}
