package io.redkit.stream.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The failed messages one worker holds, each pending for it in Redis, with when it may be handed out again. Read
 * and written by the worker's thread only. Its capacity is the back-pressure of failure: a full book stops the
 * worker from reading new entries until a retry is due, so a handler that always throws does not take the whole
 * stream into its backoff at the speed of Redis.
 */
final class RetryBook {

    /** A failed message waiting: its id, the deliveries so far, and when it is due (monotonic nanos). */
    record Entry(String id, long deliveries, long dueNanos) {
    }

    private final Map<String, Entry> byId = new HashMap<>();
    private final int capacity;
    private final long minNanos;
    private final long maxNanos;

    RetryBook(int capacity, long minNanos, long maxNanos) {
        this.capacity = capacity;
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
    }

    /**
     * The pause after the {@code deliveries}-th failed delivery: min × 2^(deliveries−1) up to max, half of it
     * fixed and half random, so that messages that failed together are not retried together.
     */
    long backoffNanos(long deliveries) {
        int doublings = (int) Math.min(Math.max(deliveries - 1, 0), 30);
        long ceiling = minNanos << doublings;
        ceiling = ceiling <= 0 || ceiling > maxNanos ? maxNanos : ceiling;
        long half = ceiling / 2;
        return half + ThreadLocalRandom.current().nextLong(ceiling - half + 1);
    }

    void schedule(String id, long deliveries, long dueNanos) {
        byId.put(id, new Entry(id, deliveries, dueNanos));
    }

    Entry remove(String id) {
        return byId.remove(id);
    }

    Entry get(String id) {
        return byId.get(id);
    }

    boolean isEmpty() {
        return byId.isEmpty();
    }

    boolean isFull() {
        return byId.size() >= capacity;
    }

    /** Up to {@code max} entries due at {@code now}, the earliest first. */
    List<Entry> due(long now, int max) {
        List<Entry> due = new ArrayList<>();
        for (Entry e : byId.values()) {
            if (e.dueNanos() - now <= 0) {
                due.add(e);
            }
        }
        due.sort(Comparator.comparingLong(Entry::dueNanos));
        return due.size() > max ? due.subList(0, max) : due;
    }

    /** Nanos until the earliest entry is due (zero or less: one is), or {@code Long.MAX_VALUE} when empty. */
    long nanosUntilNext(long now) {
        long next = Long.MAX_VALUE;
        for (Entry e : byId.values()) {
            next = Math.min(next, e.dueNanos() - now);
        }
        return next;
    }

    Collection<Entry> all() {
        return List.copyOf(byId.values());
    }

    void clear() {
        byId.clear();
    }
}
