package io.redkit.internal;

import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * The Cluster node connections that sharded pub/sub listens on, and the SUNSUBSCRIBEs it sent on them: each node
 * event is handed to {@link Events} by node id, with the server's replies to our own SUNSUBSCRIBEs filtered out.
 */
final class ShardNodes {

    /** What the node connections report, each tagged with the node id it came from. */
    interface Events {

        void message(String nodeId, String channel, byte[] message);

        /** Whether the channel is wanted on that node; a confirmation that is not is answered with SUNSUBSCRIBE. */
        boolean confirmed(String channel, String nodeId);

        /** The server ended a subscription that we did not ask to end. */
        void ended(String channel, String nodeId);

        void dropped(String nodeId);

        void reconnected(String nodeId);
    }

    private final Events events;
    /** Node connections that carry our listeners, by node id. Guarded by this. */
    private final Map<String, StatefulRedisPubSubConnection<String, byte[]>> watched = new ConcurrentHashMap<>();
    /** Our SUNSUBSCRIBEs not answered yet, by node id and channel. Guarded by this. */
    private final Map<String, Integer> leaving = new HashMap<>();

    ShardNodes(Events events) {
        this.events = events;
    }

    /** Whether the connection to that node is watched and open. */
    boolean isOpen(String nodeId) {
        StatefulRedisPubSubConnection<String, byte[]> c = nodeId == null ? null : watched.get(nodeId);
        return c != null && c.isOpen();
    }

    /** Best effort: the old owner may be down, and a message it still sends is dropped by the seam. */
    void leave(String nodeId, String channel) {
        StatefulRedisPubSubConnection<String, byte[]> node = watched.get(nodeId);
        if (node != null && node.isOpen()) {
            unsubscribeOn(nodeId, node, channel);
        }
    }

    /*
     * The server's reply to our own SUNSUBSCRIBE looks like the one it sends unasked when a slot moves; counting
     * ours tells them apart, so that leaving a channel and subscribing it again on the same node is not taken
     * for a move.
     */
    private synchronized void unsubscribeOn(String nodeId, StatefulRedisPubSubConnection<String, byte[]> node,
            String channel) {
        leaving.merge(nodeId + '\n' + channel, 1, Integer::sum);
        node.async().sunsubscribe(channel).whenComplete((ignored, error) -> {
            if (error != null) {
                answered(nodeId, channel); // no reply will come
            }
        });
    }

    /** Whether this SUNSUBSCRIBE reply answers one of ours; counts it off if so. */
    private synchronized boolean answered(String nodeId, String channel) {
        String key = nodeId + '\n' + channel;
        Integer pending = leaving.get(key);
        if (pending == null) {
            return false;
        }
        if (pending == 1) {
            leaving.remove(key);
        } else {
            leaving.put(key, pending - 1);
        }
        return true;
    }

    /** Listens on a node connection, once however often it is opened. */
    synchronized void watch(String nodeId, StatefulRedisPubSubConnection<String, byte[]> node) {
        if (watched.put(nodeId, node) == node) {
            return;
        }
        node.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void smessage(String channel, byte[] message) {
                events.message(nodeId, channel, message);
            }

            @Override
            public void ssubscribed(String channel, long count) {
                if (!events.confirmed(channel, nodeId)) {
                    // Lettuce re-subscribed, after a reconnect, a channel that moved or was closed meanwhile.
                    unsubscribeOn(nodeId, node, channel);
                }
            }

            @Override
            public void sunsubscribed(String channel, long count) {
                if (!answered(nodeId, channel)) {
                    events.ended(channel, nodeId);
                }
            }
        });
        node.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                events.dropped(nodeId);
            }

            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                events.reconnected(nodeId);
            }
        });
    }
}
