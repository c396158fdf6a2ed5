package io.redkit.lock.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedisPubSub;
import io.redkit.RedkitClock;
import io.redkit.RedkitException;

/**
 * Wakes waiters when a lock they wait for is released. One subscription per namespace, opened when the first
 * caller waits; the message is the released key. Pub/sub is loss-tolerant here by design: a missed message only
 * means the waiter wakes at the end of its backoff instead, and a reconnect wakes everyone at once.
 */
final class ReleaseSignals implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseSignals.class);
    private static final long RETRY_SUBSCRIBE_NANOS = 5_000_000_000L;

    private final RedisPubSub pubSub;
    private final String channel;
    private final RedkitClock clock;
    private final Map<String, Deque<CompletableFuture<Void>>> waiters = new ConcurrentHashMap<>();
    private volatile RedisPubSub.Subscription subscription;
    private volatile AutoCloseable reconnectHook;
    private volatile long failedAt;
    private volatile boolean closed;

    ReleaseSignals(RedisPubSub pubSub, String channel, RedkitClock clock) {
        this.pubSub = pubSub;
        this.channel = channel;
        this.clock = clock;
    }

    String channel() {
        return channel;
    }

    /** Subscribes if not yet done; false when pub/sub is unavailable (the waiter then relies on backoff). */
    boolean ensureSubscribed() {
        if (subscription != null) {
            return true;
        }
        synchronized (this) {
            if (subscription != null) {
                return true;
            }
            if (closed || (failedAt != 0 && clock.nanoTime() - failedAt < RETRY_SUBSCRIBE_NANOS)) {
                return false;
            }
            try {
                // Once, not per attempt: every retry during an outage used to add another hook.
                if (reconnectHook == null) {
                    reconnectHook = pubSub.onReconnect(this::wakeAll);
                }
                subscription = pubSub.subscribe(channel, (ch, message) ->
                        wake(new String(message, StandardCharsets.UTF_8)));
                return true;
            } catch (RedkitException e) {
                failedAt = clock.nanoTime();
                log.warn("cannot subscribe to '{}'; waiters fall back to backoff: {}", channel, e.getMessage());
                return false;
            }
        }
    }

    /** A signal completed by a later release of {@code key}; hand it back with {@link #forget}. */
    CompletableFuture<Void> register(String key) {
        CompletableFuture<Void> signal = new CompletableFuture<>();
        waiters.compute(key, (k, queue) -> {
            Deque<CompletableFuture<Void>> q = queue != null ? queue : new ArrayDeque<>();
            q.addLast(signal);
            return q;
        });
        return signal;
    }

    /** Drops a signal nobody waits on any more, so that keys never released do not stay in the map. */
    void forget(String key, CompletableFuture<Void> signal) {
        waiters.computeIfPresent(key, (k, q) -> {
            q.remove(signal);
            return q.isEmpty() ? null : q;
        });
    }

    /*
     * A release wakes ONE local waiter, the longest waiting: only one can win, and waking all of them sent one
     * acquire script per waiter at once (1000 waiters on one lock timed some out). The others wake at the next
     * release or at the end of their backoff, so a woken waiter that gives up costs latency, never liveness.
     */
    private void wake(String key) {
        List<CompletableFuture<Void>> next = new ArrayList<>(1);
        waiters.computeIfPresent(key, (k, q) -> {
            CompletableFuture<Void> first = q.pollFirst();
            if (first != null) {
                next.add(first);
            }
            return q.isEmpty() ? null : q;
        });
        next.forEach(f -> f.complete(null));
    }

    /** After a reconnect releases may have been missed: every waiter tries again. */
    private void wakeAll() {
        for (String key : waiters.keySet()) {
            Deque<CompletableFuture<Void>> q = waiters.remove(key);
            if (q != null) {
                q.forEach(f -> f.complete(null));
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (subscription != null) {
            subscription.close();
        }
        if (reconnectHook != null) {
            try {
                reconnectHook.close();
            } catch (Exception e) {
                log.debug("closing the reconnect hook failed", e);
            }
        }
        wakeAll();
    }
}
