package io.redkit.lab.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Timestamped lines, relative to the start of each scenario, as the lock labs print them. */
final class Timeline {

    final List<String> lines = new ArrayList<>();
    private long start = System.nanoTime();

    void section(String title) {
        start = System.nanoTime();
        lines.add("== " + title);
    }

    void log(String line) {
        lines.add(String.format("%6d ms  %s", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), line));
    }
}
