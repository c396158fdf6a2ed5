package io.redkit.internal;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;

/**
 * Whether sharded pub/sub may have lost messages, and the reconnect actions that resynchronise its listeners.
 * A gap opens when a confirmed subscription ends; when the seam sees every channel confirmed again it closes the
 * gap, and the link is whole once the reconnect actions it then runs have finished.
 */
final class ResyncGate {

    private final Logger log;
    private final List<Runnable> reconnectActions = new CopyOnWriteArrayList<>();
    /** A confirmed subscription ended since the link was last whole: messages may have been missed. */
    private volatile boolean gap;
    /** The reconnect actions of a closed gap are running: messages flow, but the listeners are resynchronising. */
    private volatile boolean resyncing;
    /** How many gaps opened so far; a resync that finishes after a newer one leaves {@link #resyncing} alone. */
    private long gaps;

    ResyncGate(Logger log) {
        this.log = log;
    }

    AutoCloseable onReconnect(Runnable action) {
        reconnectActions.add(action);
        return () -> reconnectActions.remove(action);
    }

    /** Whether no gap is open and no resync is running. */
    boolean isWhole() {
        return !gap && !resyncing;
    }

    synchronized void open() {
        gap = true;
        gaps++;
    }

    /*
     * As in DefaultRedisPubSub: the reconnect actions run once every channel is confirmed again, and only then
     * does the link say connected, so that a listener that resynchronises does so after the gap has closed.
     */
    void closeIfConfirmed(Collection<ShardChannel> channels) {
        if (!gap) {
            return;
        }
        for (ShardChannel ch : channels) {
            if (!ch.confirmed) {
                return;
            }
        }
        long opened;
        synchronized (this) {
            gap = false;
            resyncing = true;
            opened = gaps;
        }
        PubSubSupport.resync(reconnectActions, log, "sharded pub/sub reconnect action", () -> resynced(opened));
    }

    private synchronized void resynced(long opened) {
        if (gaps == opened) {
            resyncing = false;
        }
    }
}
