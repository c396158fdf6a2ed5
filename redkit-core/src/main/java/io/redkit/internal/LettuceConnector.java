package io.redkit.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.masterreplica.MasterReplica;
import io.lettuce.core.masterreplica.StatefulRedisMasterReplicaConnection;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.redkit.RedisEndpoint;
import io.redkit.RedkitConfig;
import io.redkit.Topology;
import reactor.core.Disposable;

/**
 * The only place that knows the topology: builds the Lettuce client for standalone, Sentinel or Cluster with
 * redkit's defaults, and opens connections that the rest of redkit sees through one command interface.
 */
public final class LettuceConnector {

    /** String keys (UTF-8), byte values: features choose their own value encoding. */
    public static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

    private final RedkitConfig config;
    private final AbstractRedisClient client;
    private final RedisURI standaloneUri;
    private final Set<StatefulRedisClusterConnection<String, byte[]>> clusterConnections =
            ConcurrentHashMap.newKeySet();
    private final Disposable topologyEvents;
    private final List<Runnable> topologyListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    // Asked for the replicas of the master before a wait for them; opened on first use (see sentinelReplicas).
    private StatefulRedisSentinelConnection<String, String> sentinel;
    // Cluster only: opens the redirect connections of RESP2 tracked nodes (see connectPubSubAsync); on first use.
    private RedisClient nodeClient;
    private final ClientResources resources;

    private LettuceConnector(RedkitConfig config, AbstractRedisClient client, RedisURI standaloneUri,
            ClientResources resources) {
        this.config = config;
        this.client = client;
        this.standaloneUri = standaloneUri;
        this.resources = resources;
        this.topologyEvents = client instanceof RedisClusterClient
                ? resources.eventBus().get().filter(ClusterTopologyChangedEvent.class::isInstance)
                        // The event is published as the new view is applied; give the connections a moment.
                        .delayElements(Duration.ofMillis(20))
                        .subscribe(e -> warmAfterTopologyChange(), e -> { })
                : null;
    }

    /** Creates the client for {@code config}'s topology; nothing is connected yet. */
    public static LettuceConnector create(RedkitConfig config, ClientResources resources) {
        if (config.topology() == Topology.CLUSTER) {
            List<RedisURI> seeds = new ArrayList<>();
            for (RedisEndpoint e : config.endpoints()) {
                seeds.add(uri(config, RedisURI.Builder.redis(e.host(), e.port())));
            }
            // As for standalone below: Lettuce's client, whose connections leave sync and reactive to first use.
            RedisClusterClient cluster = new LazyFacadeRedisClusterClient(resources, seeds);
            cluster.setOptions(ClusterClientOptions.builder(clientOptions(config).build())
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enablePeriodicRefresh(config.topologyRefreshPeriod())
                            .enableAllAdaptiveRefreshTriggers()
                            .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(5))
                            .build())
                    .build());
            return new LettuceConnector(config, cluster, null, resources);
        }
        RedisURI.Builder builder;
        List<RedisEndpoint> endpoints = config.endpoints();
        if (config.topology() == Topology.SENTINEL) {
            RedisEndpoint first = endpoints.get(0);
            builder = RedisURI.Builder.sentinel(first.host(), first.port(), config.sentinelMasterId());
            for (RedisEndpoint e : endpoints.subList(1, endpoints.size())) {
                builder.withSentinel(e.host(), e.port());
            }
        } else {
            builder = RedisURI.Builder.redis(endpoints.get(0).host(), endpoints.get(0).port());
        }
        builder.withDatabase(config.database());
        RedisURI uri = uri(config, builder);
        // Lettuce's client, with connections that leave the sync and reactive facades to first use (building them
        // was ~0.4 s of a fresh JVM's 1.3 s first connect; redkit sends through async()).
        RedisClient standalone = new LazyFacadeRedisClient(resources, uri);
        standalone.setOptions(clientOptions(config).build());
        return new LettuceConnector(config, standalone, uri, resources);
    }

    /** Runs {@code action} on the event loop whenever any connection of this client drops. */
    public void onDisconnect(Runnable action) {
        client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
                action.run();
            }
        });
    }

    /**
     * Runs {@code action} on the event loop whenever any connection of this client becomes active (first connect and
     * every reconnect), after its handshake and before any command a caller sends on it.
     */
    public void onConnected(java.util.function.Consumer<RedisChannelHandler<?, ?>> action) {
        client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> connection, java.net.SocketAddress address) {
                action.accept(connection);
            }
        });
    }

    /** Runs {@code action} after each Cluster topology change, once the masters have been connected again. */
    public void onTopologyChange(Runnable action) {
        topologyListeners.add(action);
    }

    /** Opens a new connection; Lettuce's connect exceptions are translated by the caller. */
    public StatefulConnection<String, byte[]> connect() {
        if (client instanceof RedisClusterClient cluster) {
            StatefulRedisClusterConnection<String, byte[]> connection = cluster.connect(CODEC);
            // Pruned here too, not only on a topology change: dedicated connections come and go in between.
            clusterConnections.removeIf(c -> !c.isOpen());
            clusterConnections.add(connection);
            awaitWarm(connection);
            return connection;
        }
        return ((RedisClient) client).connect(CODEC);
    }

    /**
     * Opens a connection whose reads go to replicas when one is up: on Cluster a cluster connection reading from
     * replicas, under Sentinel a master/replica connection that follows the Sentinels' view; on a standalone
     * server, an ordinary connection (there are no known replicas).
     */
    public StatefulConnection<String, byte[]> connectReplicaReads() {
        if (client instanceof RedisClusterClient cluster) {
            StatefulRedisClusterConnection<String, byte[]> connection = cluster.connect(CODEC);
            connection.setReadFrom(io.lettuce.core.ReadFrom.REPLICA_PREFERRED);
            clusterConnections.removeIf(c -> !c.isOpen());
            clusterConnections.add(connection);
            awaitWarm(connection);
            awaitReadersWarm(connection);
            return connection;
        }
        if (config.topology() == Topology.SENTINEL) {
            StatefulRedisMasterReplicaConnection<String, byte[]> connection =
                    MasterReplica.connect((RedisClient) client, CODEC, standaloneUri);
            connection.setReadFrom(io.lettuce.core.ReadFrom.REPLICA_PREFERRED);
            return connection;
        }
        return connect();
    }

    /**
     * Opens a pub/sub connection (on Cluster, to one node: classic PUBLISH reaches every node). Lettuce subscribes
     * again after a reconnect; connect exceptions are translated by the caller.
     */
    public StatefulRedisPubSubConnection<String, byte[]> connectPubSub() {
        if (client instanceof RedisClusterClient cluster) {
            return cluster.connectPubSub(CODEC);
        }
        return ((RedisClient) client).connectPubSub(CODEC);
    }

    /**
     * Opens a pub/sub connection with {@code codec} to the server {@link #connect()} reaches (standalone, or the
     * master under Sentinel), without blocking: for what is opened from the event loop.
     *
     * @throws IllegalStateException when the topology is Cluster
     */
    public <K, V> CompletableFuture<StatefulRedisPubSubConnection<K, V>> connectPubSubAsync(RedisCodec<K, V> codec) {
        if (client instanceof RedisClient standalone) {
            return standalone.connectPubSubAsync(codec, standaloneUri).toCompletableFuture();
        }
        throw new IllegalStateException("a Cluster client");
    }

    /**
     * Opens a pub/sub connection with {@code codec} to one Cluster node, {@code host:port}, with the seeds'
     * credentials and TLS, without blocking: a RESP2 tracked node's redirect connection. The Cluster client has no
     * pub/sub connection to a node of the caller's choosing with a codec of its own, so a standalone client on the
     * same resources opens it.
     *
     * @throws IllegalStateException when the topology is not Cluster
     */
    public <K, V> CompletableFuture<StatefulRedisPubSubConnection<K, V>> connectPubSubAsync(RedisCodec<K, V> codec,
            String host, int port) {
        if (!(client instanceof RedisClusterClient)) {
            throw new IllegalStateException("not a Cluster client");
        }
        return nodeClient().connectPubSubAsync(codec, uri(config, RedisURI.Builder.redis(host, port)))
                .toCompletableFuture();
    }

    private synchronized RedisClient nodeClient() {
        if (nodeClient == null) {
            nodeClient = RedisClient.create(resources);
            nodeClient.setOptions(clientOptions(config).build());
        }
        return nodeClient;
    }

    /**
     * Opens a Cluster pub/sub connection, for sharded pub/sub: its node connections are opened on demand, one
     * per shard a channel lives on.
     *
     * @throws IllegalStateException when the topology is not Cluster
     */
    public StatefulRedisClusterPubSubConnection<String, byte[]> connectClusterPubSub() {
        if (client instanceof RedisClusterClient cluster) {
            return cluster.connectPubSub(CODEC);
        }
        throw new IllegalStateException("not a Cluster client");
    }

    /**
     * How many replicas of the master the Sentinels know and do not hold down ({@code SENTINEL REPLICAS}, those
     * flagged {@code s_down}, {@code o_down} or {@code disconnected} left out); 0 on a standalone server, whose
     * replicas are not known. A replica whose link to the master is broken is counted: it is the one a wait must
     * not pass over. One Sentinel connection is kept for it, opened again after a failure.
     *
     * @throws RuntimeException Lettuce's, when no Sentinel answers; the caller translates it
     */
    public synchronized int sentinelReplicas() {
        if (config.topology() != Topology.SENTINEL) {
            return 0;
        }
        try {
            if (sentinel == null || !sentinel.isOpen()) {
                closeSentinel();
                sentinel = ((RedisClient) client).connectSentinel(StringCodec.UTF8, standaloneUri);
            }
            int up = 0;
            for (Map<String, String> replica : sentinel.sync().replicas(config.sentinelMasterId())) {
                String flags = replica.getOrDefault("flags", "");
                if (!flags.contains("s_down") && !flags.contains("o_down") && !flags.contains("disconnected")) {
                    up++;
                }
            }
            return up;
        } catch (RuntimeException e) {
            closeSentinel();
            throw e;
        }
    }

    private void closeSentinel() {
        if (sentinel != null) {
            sentinel.closeAsync();
            sentinel = null;
        }
    }

    /** Asks Lettuce to reload the Cluster slot map in the background; nothing on other topologies. */
    public void refreshTopology() {
        if (client instanceof RedisClusterClient cluster) {
            cluster.refreshPartitionsAsync().exceptionally(e -> null);
        }
    }

    /*
     * Lettuce opens a Cluster connection's per-node connections lazily, on the first command for a slot, and with
     * REJECT_COMMANDS it rejects a command whose node connection is still being opened (lettuce#3747). So every
     * master is connected up front, and again whenever the topology changes (failover, new master), so that the
     * first command after a change finds its node connected instead of being rejected.
     */
    private void awaitWarm(StatefulRedisClusterConnection<String, byte[]> connection) {
        // A master that cannot be reached now is not fatal: its commands are rejected until it is back.
        Futures.awaitAll(warm(connection), config.connectTimeout());
    }

    /*
     * A read connection to a replica is opened on the first read routed to it, and like a master's (lettuce#3747)
     * that first read is rejected while it opens; getConnectionAsync(host, port) opens write connections only. So
     * one read per master's shard is sent, and sent again until it is answered or the connect timeout has passed.
     */
    private void awaitReadersWarm(StatefulRedisClusterConnection<String, byte[]> connection) {
        long deadline = System.nanoTime() + config.connectTimeout().toNanos();
        for (String key : oneKeyPerMaster(connection)) {
            while (System.nanoTime() < deadline) {
                try {
                    connection.async().get(key).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (ExecutionException | TimeoutException e) {
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                }
            }
        }
    }

    private static List<String> oneKeyPerMaster(StatefulRedisClusterConnection<String, byte[]> connection) {
        Set<String> masters = new java.util.HashSet<>();
        for (RedisClusterNode node : connection.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
                masters.add(node.getNodeId());
            }
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; !masters.isEmpty() && i < 100_000; i++) {
            String key = "redkit:warm:" + i;
            RedisClusterNode owner = connection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
            if (owner != null && masters.remove(owner.getNodeId())) {
                keys.add(key);
            }
        }
        return keys;
    }

    private static List<CompletableFuture<?>> warm(StatefulRedisClusterConnection<String, byte[]> connection) {
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (RedisClusterNode node : connection.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && node.getUri() != null) {
                // Keyed by host and port, as Lettuce's slot routing looks node connections up.
                pending.add(connection.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort())
                        .toCompletableFuture());
            }
        }
        return pending;
    }

    private void warmAfterTopologyChange() {
        clusterConnections.removeIf(c -> !c.isOpen());
        for (StatefulRedisClusterConnection<String, byte[]> connection : clusterConnections) {
            warm(connection);
        }
        topologyListeners.forEach(Runnable::run);
    }

    /** The topology-independent command interface of a connection opened here. */
    public static RedisClusterAsyncCommands<String, byte[]> async(StatefulConnection<String, byte[]> connection) {
        if (connection instanceof StatefulRedisClusterConnection<String, byte[]> cluster) {
            return cluster.async();
        }
        return ((StatefulRedisConnection<String, byte[]>) connection).async();
    }

    /** Shuts the client down (not the shared resources). */
    public void shutdown(Duration timeout) {
        if (topologyEvents != null) {
            topologyEvents.dispose();
        }
        RedisClient nodes;
        synchronized (this) {
            closeSentinel();
            nodes = nodeClient;
        }
        if (nodes != null) {
            nodes.shutdown(0, timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        client.shutdown(0, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The configuration this connector was built from. */
    public RedkitConfig config() {
        return config;
    }

    private static RedisURI uri(RedkitConfig config, RedisURI.Builder builder) {
        builder.withTimeout(config.connectTimeout());
        if (config.tls()) {
            builder.withSsl(true).withVerifyPeer(switch (config.tlsVerify()) {
                case FULL -> SslVerifyMode.FULL;
                case CA -> SslVerifyMode.CA;
                case NONE -> SslVerifyMode.NONE;
            });
        }
        if (config.password() != null) {
            if (config.username() != null) {
                builder.withAuthentication(config.username(), config.password());
            } else {
                builder.withPassword(config.password().toCharArray());
            }
        }
        if (config.clientName() != null) {
            builder.withClientName(config.clientName());
        }
        return builder.build();
    }

    private static ClientOptions.Builder clientOptions(RedkitConfig config) {
        ClientOptions.Builder options = ClientOptions.builder()
                .autoReconnect(true)
                // Lettuce queues commands while disconnected until they time out; a request path wants to
                // know at once that Redis is gone, so that it can serve from the source.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(config.connectTimeout()).keepAlive(true)
                        .build())
                // redkit applies each profile's timeout itself, so Lettuce's own is off (see CommandExecutor).
                .timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build());
        if (config.tls() && config.caCertificate() != null) {
            options.sslOptions(SslOptions.builder().trustManager(config.caCertificate().toFile()).build());
        }
        return options;
    }
}
