package io.redkit.stream.internal;

import io.redkit.RedisPubSub;
import io.redkit.stream.SignalMode;

/** How signal bytes travel: plain pub/sub, or sharded pub/sub on Cluster. */
interface SignalTransport {

    SignalMode mode();

    long publish(String channel, byte[] message);

    RedisPubSub.Subscription subscribe(String channel, RedisPubSub.Listener listener);

    /** Runs {@code action} after each reconnect, once every subscription is confirmed again. */
    AutoCloseable onReconnect(Runnable action);

    boolean isConnected();
}
