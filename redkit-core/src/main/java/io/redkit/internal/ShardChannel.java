package io.redkit.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.lettuce.core.cluster.SlotHash;
import io.redkit.RedisPubSub.Listener;

/** A wanted shard channel: its listeners, and the node it is subscribed on. Written under the seam's lock. */
final class ShardChannel {

    final String name;
    final int slot;
    final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** Completes when the server first confirms the subscription. */
    final CompletableFuture<Void> firstConfirmed = new CompletableFuture<>();
    /** The node SSUBSCRIBE was sent to, or null when it must be sent (again). */
    volatile String node;
    volatile boolean confirmed;
    long sentAt;
    Throwable lastError;

    ShardChannel(String name) {
        this.name = name;
        this.slot = SlotHash.getSlot(name);
    }
}
