package io.redkit.stream;

import java.util.Objects;

import io.redkit.Redkit;
import io.redkit.stream.internal.DefaultSignals;

/**
 * Typed pub/sub for signals whose loss is safe: "key 42 changed, drop it from your near cache", "a lock was
 * released, try again". Never for work that must be done (use {@link StreamQueue}).
 *
 * <p><b>What is lost.</b> A signal reaches only the subscribers connected at that moment. One published while a
 * subscriber is away (reconnecting after a network blip, a Redis restart or failover, a deploy, or disconnected
 * by Redis because it read too slowly and hit {@code client-output-buffer-limit pubsub}) is gone for it, and
 * nothing tells the publisher: {@link #publish} counts receivers, not handlers. What the subscriber does get is
 * {@link SignalListener#onMissed} once it is back and every subscription is confirmed again, so that it can
 * resynchronise (flush a near cache, re-read the state the signals were about). Between the drop and that call,
 * signals are being missed; {@link #isConnected()} says so.
 *
 * <p><b>Topology.</b> On Cluster a plain {@code PUBLISH} is copied to every node of the cluster; sharded pub/sub
 * ({@code SPUBLISH}/{@code SSUBSCRIBE}, Redis 7) sends a signal to its channel's shard only, so on Cluster
 * signals are sharded ({@link SignalMode#SHARDED}) and plain elsewhere; {@link #mode()} says which. A sharded
 * subscription follows its channel's slot to a new master after a failover or a resharding: signals published
 * while it moves are lost like any other, and {@link SignalListener#onMissed} runs once it is confirmed there.
 *
 * @param <T> the signal's payload type
 */
public interface Signals<T> extends AutoCloseable {

    /** Signals of JSON payloads of {@code type}. */
    static <T> Signals<T> create(Redkit redkit, Class<T> type) {
        return create(redkit, JsonCodec.of(type));
    }

    /** Signals whose payloads {@code codec} encodes. */
    static <T> Signals<T> create(Redkit redkit, MessageCodec<T> codec) {
        return new DefaultSignals<>(Objects.requireNonNull(redkit, "redkit"), Objects.requireNonNull(codec, "codec"));
    }

    /** A subscription; closing it stops delivery to its listener. */
    interface Subscription extends AutoCloseable {
        /** The channel. */
        String channel();

        @Override
        void close();
    }

    /**
     * Publishes {@code signal} on {@code channel}: how many subscribers received it (on Cluster with
     * {@link SignalMode#PUBSUB}, those connected to the node that took the PUBLISH). Zero is not an error: nobody
     * listened, and nobody will ever get it.
     *
     * @throws StreamException when the payload cannot be encoded
     */
    long publish(String channel, T signal);

    /**
     * Subscribes {@code listener} to {@code channel}; returns once Redis confirmed the subscription, so a signal
     * published after this returns reaches it (while connected). The listener runs on the client's I/O thread:
     * it must return quickly and never block; hand real work to an executor.
     */
    Subscription subscribe(String channel, SignalListener<T> listener);

    /** Whether the subscriber connection is up with every subscription confirmed: if not, signals are being missed. */
    boolean isConnected();

    /** How signals travel on this topology. */
    SignalMode mode();

    /** Closes every subscription made through this object. */
    @Override
    void close();
}
