package io.redkit.lock.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedisPubSub;
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
    private final Map<String, Set<CompletableFuture<Void>>> waiters = new ConcurrentHashMap<>();
    private volatile RedisPubSub.Subscription subscription;
    private volatile AutoCloseable reconnectHook;
    private volatile long failedAt;
    private volatile boolean closed;

    ReleaseSignals(RedisPubSub pubSub, String channel) {
        this.pubSub = pubSub;
        this.channel = channel;
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
            if (closed || (failedAt != 0 && System.nanoTime() - failedAt < RETRY_SUBSCRIBE_NANOS)) {
                return false;
            }
            try {
                reconnectHook = pubSub.onReconnect(this::wakeAll);
                subscription = pubSub.subscribe(channel, (ch, message) ->
                        wake(new String(message, StandardCharsets.UTF_8)));
                return true;
            } catch (RedkitException e) {
                failedAt = System.nanoTime();
                log.warn("cannot subscribe to '{}'; waiters fall back to backoff: {}", channel, e.getMessage());
                return false;
            }
        }
    }

    /** A signal completed by the next release of {@code key}; hand it back with {@link #forget}. */
    CompletableFuture<Void> register(String key) {
        CompletableFuture<Void> signal = new CompletableFuture<>();
        waiters.compute(key, (k, set) -> {
            Set<CompletableFuture<Void>> s = set != null ? set : ConcurrentHashMap.newKeySet();
            s.add(signal);
            return s;
        });
        return signal;
    }

    /** Drops a signal nobody waits on any more, so that keys never released do not stay in the map. */
    void forget(String key, CompletableFuture<Void> signal) {
        waiters.computeIfPresent(key, (k, set) -> {
            set.remove(signal);
            return set.isEmpty() ? null : set;
        });
    }

    private void wake(String key) {
        Set<CompletableFuture<Void>> set = waiters.remove(key);
        if (set != null) {
            set.forEach(f -> f.complete(null));
        }
    }

    private void wakeAll() {
        waiters.keySet().forEach(this::wake);
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
