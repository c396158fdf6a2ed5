package io.redkit.internal;

import io.redkit.RedisPubSub;

/** A pub/sub seam that {@code Redkit.close()} closes: its subscriber connections. */
public interface PubSubSeam extends RedisPubSub, AutoCloseable {

    @Override
    void close();
}
