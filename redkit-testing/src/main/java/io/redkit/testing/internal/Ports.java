package io.redkit.testing.internal;

import io.redkit.testing.RedisTestingException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hands out free loopback ports and keeps them reserved in this JVM until released.
 *
 * <p>Ports come from 10000-21999, below Linux's ephemeral range (32768+): an outgoing client
 * socket then never sits on a port a server wants back after a restart, and a cluster bus port
 * (port + 10000) stays below 32000.
 */
public final class Ports {

    /** Offset of a Redis Cluster node's bus port from its client port. */
    public static final int CLUSTER_BUS_OFFSET = 10000;

    private static final int LOW = 10000;
    private static final int HIGH = 22000;
    private static final int ATTEMPTS = 500;
    // Ports of a developer's own Redis and PostgreSQL: a test must never start on, or poke at, these.
    private static final Set<Integer> AVOID = Set.of(6379, 16379, 26379, 5432);
    private static final Set<Integer> RESERVED = ConcurrentHashMap.newKeySet();

    private Ports() {
    }

    /** Reserves a port that is free now (and, with {@code clusterBus}, whose bus port is free too). */
    public static int reserve(boolean clusterBus) {
        for (int i = 0; i < ATTEMPTS; i++) {
            int port = ThreadLocalRandom.current().nextInt(LOW, HIGH);
            int bus = port + CLUSTER_BUS_OFFSET;
            if (AVOID.contains(port) || AVOID.contains(bus) || !RESERVED.add(port)) {
                continue;
            }
            if (!clusterBus && isFree(port)) {
                return port;
            }
            if (clusterBus && RESERVED.add(bus)) {
                if (isFree(port) && isFree(bus)) {
                    return port;
                }
                RESERVED.remove(bus);
            }
            RESERVED.remove(port);
        }
        throw new RedisTestingException("No free loopback port found in " + LOW + "-" + HIGH + " after " + ATTEMPTS + " tries");
    }

    /** Reserves a port the caller chose, failing when it is taken or below 1024. */
    public static int reserveExact(int port, boolean clusterBus) {
        if (port < 1024 || port + (clusterBus ? CLUSTER_BUS_OFFSET : 0) > 65535 || AVOID.contains(port)) {
            throw new IllegalArgumentException("port " + port + " is not usable for a test server");
        }
        if (!isFree(port) || !RESERVED.add(port)) {
            throw new RedisTestingException("Port " + port + " on 127.0.0.1 is already in use");
        }
        if (clusterBus) {
            RESERVED.add(port + CLUSTER_BUS_OFFSET);
        }
        return port;
    }

    /** Releases a port (and its bus port) so that it can be handed out again. */
    public static void release(int port, boolean clusterBus) {
        RESERVED.remove(port);
        if (clusterBus) {
            RESERVED.remove(port + CLUSTER_BUS_OFFSET);
        }
    }

    /** Tells whether 127.0.0.1:port can be bound now, the same way redis-server binds it (SO_REUSEADDR). */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
