package io.redkit.cache.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.RedisOps;
import io.redkit.RedisPubSub;
import io.redkit.RedkitException;
import io.redkit.Redkit;

/**
 * The in-process copy of hot entries (Caffeine: size bound, short TTL), kept honest across instances by an
 * invalidation channel. Pub/sub loses messages while a subscriber is away, so: every message carries its
 * publisher's sequence number and a gap flushes everything; a reconnect of the subscriber connection flushes
 * everything once the re-subscription is confirmed (not before: a flush inside the gap could be refilled with a
 * value whose invalidation is then missed). The sequence bookkeeping survives the reconnect, so the first message
 * after it still reveals a gap. While the subscriber is not confirmed, the near cache is bypassed.
 *
 * <p>Message (UTF-8): {@code 1 <publisher> <seq>\n} then either {@code *} (flush all) or one entry key per line
 * (keys are escaped by {@code KeySchema}, so they hold no newline).
 */
final class PubSubNearCache<V> extends NearEntries<V> {

    private static final Logger log = LoggerFactory.getLogger(PubSubNearCache.class);

    private final String channel;
    private final String publisher = UUID.randomUUID().toString();
    private final AtomicLong sequence = new AtomicLong();
    private final Map<String, Long> lastSeen = new ConcurrentHashMap<>();
    private final RedisOps publishOps;
    private final RedisPubSub.Subscription subscription;
    private final AutoCloseable reconnectCue;
    private final RedisPubSub pubSub;

    PubSubNearCache(Redkit redkit, String channel, long size, Duration ttl) {
        super(redkit, size, ttl);
        this.channel = channel;
        this.publishOps = redkit.commands();
        this.pubSub = redkit.pubSub();
        RedisPubSub.Subscription subscribed = null;
        AutoCloseable cue = null;
        try {
            // Runs once the re-subscription is confirmed: whatever was published meanwhile is lost.
            cue = pubSub.onReconnect(() -> flush("re-subscribed after a reconnect"));
            subscribed = pubSub.subscribe(channel, (from, message) -> receive(message));
        } catch (RedkitException e) {
            // Without the subscription no invalidation can reach this instance: the near cache stays unused.
            log.warn("near cache: cannot subscribe to {}, near cache off: {}", channel, e.toString());
        }
        this.subscription = subscribed;
        this.reconnectCue = cue;
    }

    @Override
    public Lookup<V> get(String key) {
        // While the subscriber is down, invalidations are being missed: serve nothing from here until the
        // reconnect flush, so a stale entry is never served past the moment the drop was noticed.
        if (subscription == null || !pubSub.isConnected()) {
            return Lookup.miss();
        }
        return lookup(key);
    }

    @Override
    public void put(String key, Optional<V> value, long epochBefore) {
        if (subscription != null && pubSub.isConnected()) {
            keep(key, value, epochBefore);
        }
    }

    /** Drops keys here and tells the other instances; a failed publish leaves a gap they will notice. */
    @Override
    public void invalidate(Collection<String> keys) {
        drop(keys);
        publish(String.join("\n", keys));
    }

    @Override
    public CompletableFuture<Long> announce(Collection<String> keys) {
        return publish(String.join("\n", keys));
    }

    @Override
    public void forget(Collection<String> keys) {
        drop(keys);
    }

    @Override
    public void invalidateAll() {
        flush("invalidated by prefix");
        publish("*");
    }

    /*
     * The number is taken and the message handed to the connection under one lock, so messages leave in the order
     * of their numbers: two invalidating threads publishing out of order made every other instance see a gap and
     * flush everything. The send is asynchronous, so the lock is held for a hand-over, not a round trip.
     */
    private CompletableFuture<Long> publish(String body) {
        synchronized (sequence) {
            long seq = sequence.incrementAndGet();
            byte[] message = ("1 " + publisher + " " + seq + "\n" + body).getBytes(StandardCharsets.UTF_8);
            try {
                CompletableFuture<Long> sent = publishOps.publishAsync(channel, message);
                sent.exceptionally(e -> {
                    log.debug("near cache: invalidation {} not published: {}", seq, e.toString());
                    return null;
                });
                return sent;
            } catch (RedkitException e) {
                log.debug("near cache: invalidation {} not published: {}", seq, e.toString());
                return CompletableFuture.failedFuture(e);
            }
        }
    }

    private void receive(byte[] raw) {
        String message = new String(raw, StandardCharsets.UTF_8);
        int newline = message.indexOf('\n');
        String[] header = (newline < 0 ? message : message.substring(0, newline)).split(" ");
        if (newline < 0 || header.length != 3 || !"1".equals(header[0])) {
            flush("unreadable invalidation message");
            return;
        }
        if (publisher.equals(header[1])) {
            return;
        }
        long seq;
        try {
            seq = Long.parseLong(header[2]);
        } catch (NumberFormatException e) {
            flush("unreadable invalidation sequence");
            return;
        }
        Long previous = lastSeen.put(header[1], seq);
        if (previous != null && seq != previous + 1) {
            flush("gap in invalidations from " + header[1] + ": " + previous + " then " + seq);
            return;
        }
        String body = message.substring(newline + 1);
        if ("*".equals(body)) {
            flush("flush requested by " + header[1]);
            return;
        }
        dropReceived(Arrays.asList(body.split("\n")));
    }

    private void flush(String why) {
        empty();
        log.debug("near cache {} flushed: {}", channel, why);
    }

    @Override
    public void close() {
        if (subscription != null) {
            subscription.close();
        }
        if (reconnectCue != null) {
            try {
                reconnectCue.close();
            } catch (Exception e) {
                log.debug("near cache: removing the reconnect cue failed: {}", e.toString());
            }
        }
        clear();
    }
}
