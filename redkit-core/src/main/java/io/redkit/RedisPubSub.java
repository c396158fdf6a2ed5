package io.redkit;

/**
 * Pub/sub on the process's one subscriber connection: fire-and-forget signals (a lock was released, a cached key
 * was invalidated). A message published while this client was disconnected is lost, never redelivered; a listener
 * that must not miss one registers {@link #onReconnect} and resynchronises (for example, flushes a near cache).
 * Publishing goes through {@link RedisOps#publish}.
 */
public interface RedisPubSub {

    /** Receives one message; runs on Lettuce's event loop, so it must return quickly and never block. */
    @FunctionalInterface
    interface Listener {
        /** Called for each message on a subscribed channel. */
        void onMessage(String channel, byte[] message);
    }

    /** A registration; closing it stops delivery to its listener (and unsubscribes when it was the last one). */
    interface Subscription extends AutoCloseable {
        /** The channel subscribed to. */
        String channel();

        @Override
        void close();
    }

    /**
     * Subscribes {@code listener} to {@code channel}; returns once the server confirmed the subscription.
     *
     * @throws RedkitException when the subscription could not be confirmed within the background timeout
     */
    Subscription subscribe(String channel, Listener listener);

    /**
     * Runs {@code action} each time the subscriber connection comes back after a drop, once the server has
     * confirmed every subscription again: messages published meanwhile are gone, and none is being missed any
     * more. The actions run on a pool thread (the common pool), not on the I/O thread, and {@link #isConnected()}
     * turns true only once they have all returned. Closing the returned handle removes the action.
     */
    AutoCloseable onReconnect(Runnable action);

    /**
     * Whether the subscriber connection is up and every subscription confirmed. While it is not, messages are
     * being missed: a listener that serves from what the messages keep fresh (a near cache) should stop serving
     * until {@link #onReconnect}.
     */
    boolean isConnected();
}
