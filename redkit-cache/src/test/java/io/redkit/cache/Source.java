package io.redkit.cache;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** A source of truth in memory that counts how often it is read, and can be slow like a database. */
final class Source {

    final Map<String, String> rows = new ConcurrentHashMap<>();
    final AtomicInteger loads = new AtomicInteger();
    final AtomicInteger batchLoads = new AtomicInteger();
    volatile long latencyNanos;

    Optional<String> load(String id) {
        loads.incrementAndGet();
        work();
        return Optional.ofNullable(rows.get(id));
    }

    Map<String, String> loadAll(Set<String> ids) {
        batchLoads.incrementAndGet();
        work();
        Map<String, String> found = new ConcurrentHashMap<>();
        for (String id : ids) {
            String row = rows.get(id);
            if (row != null) {
                found.put(id, row);
            }
        }
        return found;
    }

    private void work() {
        if (latencyNanos > 0) {
            // Simulated query time, so that concurrent misses overlap; not a wait for a condition.
            LockSupport.parkNanos(latencyNanos);
        }
    }
}
