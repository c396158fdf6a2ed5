package io.redkit.stream.internal;

import io.redkit.RedisPubSub;
import io.redkit.Redkit;
import io.redkit.Topology;
import io.redkit.stream.SignalMode;

/**
 * The one place the signal transport is chosen from the topology. On Cluster, sharded pub/sub
 * ({@code SSUBSCRIBE}/{@code SPUBLISH}): a plain {@code PUBLISH} is copied to every node over the cluster bus,
 * while a sharded one goes to the shard that owns the channel's slot only. On a single server or Sentinel there is
 * one shard, and plain pub/sub works on every Redis version.
 */
final class SignalTransports {

    private SignalTransports() {
    }

    static SignalTransport forTopology(Redkit redkit) {
        if (redkit.topology() == Topology.CLUSTER) {
            return new Transport(SignalMode.SHARDED, redkit.shardedPubSub(), redkit.commands()::spublish);
        }
        return new Transport(SignalMode.PUBSUB, redkit.pubSub(), redkit.commands()::publish);
    }

    /** How a signal is published: PUBLISH or SPUBLISH, on the request profile. */
    @FunctionalInterface
    private interface Publisher {
        long publish(String channel, byte[] message);
    }

    /** Publishes on the request profile; subscribes on the client's subscriber connections of that kind. */
    private record Transport(SignalMode mode, RedisPubSub pubSub, Publisher publisher) implements SignalTransport {

        @Override
        public long publish(String channel, byte[] message) {
            return publisher.publish(channel, message);
        }

        @Override
        public RedisPubSub.Subscription subscribe(String channel, RedisPubSub.Listener listener) {
            return pubSub.subscribe(channel, listener);
        }

        @Override
        public AutoCloseable onReconnect(Runnable action) {
            return pubSub.onReconnect(action);
        }

        @Override
        public boolean isConnected() {
            return pubSub.isConnected();
        }
    }
}
