package io.redkit.stream.internal;

import io.redkit.RedisPubSub;
import io.redkit.Redkit;
import io.redkit.stream.SignalMode;

/**
 * The one place the signal transport is chosen from the topology. On Cluster, sharded pub/sub
 * ({@code SSUBSCRIBE}/{@code SPUBLISH}) is the right one: a plain {@code PUBLISH} is copied to every node. It
 * needs {@code RedisPubSub.ssubscribe} and {@code RedisOps.spublish} from redkit-core (see the module README);
 * until then every topology uses plain pub/sub, which is correct everywhere and only costlier on Cluster.
 */
final class SignalTransports {

    private SignalTransports() {
    }

    static SignalTransport forTopology(Redkit redkit) {
        // When core has sharded pub/sub: if (redkit.topology() == Topology.CLUSTER) return new ShardedTransport(redkit);
        return new PubSubTransport(redkit);
    }

    /** PUBLISH on the request profile, SUBSCRIBE on the client's one subscriber connection. */
    private static final class PubSubTransport implements SignalTransport {
        private final Redkit redkit;

        PubSubTransport(Redkit redkit) {
            this.redkit = redkit;
        }

        @Override
        public SignalMode mode() {
            return SignalMode.PUBSUB;
        }

        @Override
        public long publish(String channel, byte[] message) {
            return redkit.commands().publish(channel, message);
        }

        @Override
        public RedisPubSub.Subscription subscribe(String channel, RedisPubSub.Listener listener) {
            return redkit.pubSub().subscribe(channel, listener);
        }

        @Override
        public AutoCloseable onReconnect(Runnable action) {
            return redkit.pubSub().onReconnect(action);
        }

        @Override
        public boolean isConnected() {
            return redkit.pubSub().isConnected();
        }
    }
}
