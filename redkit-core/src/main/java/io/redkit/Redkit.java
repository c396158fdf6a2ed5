package io.redkit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.tracing.MicrometerTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.redkit.internal.Cleanup;
import io.redkit.internal.CommandExecutor;
import io.redkit.internal.DedicatedPool;
import io.redkit.internal.DefaultRedisOps;
import io.redkit.internal.DefaultRedisPubSub;
import io.redkit.internal.DefaultScriptRegistry;
import io.redkit.internal.ExceptionTranslator;
import io.redkit.internal.FlushConsolidation;
import io.redkit.internal.ClusterShardedPubSub;
import io.redkit.internal.LettuceConnector;
import io.redkit.internal.PubSubSeam;
import io.redkit.internal.Lifecycle;
import io.redkit.internal.RedkitMetrics;
import io.redkit.internal.ReplicaReads;
import io.redkit.internal.TrackedClusterReads;
import io.redkit.internal.TrackedConnection;
import io.redkit.internal.WheelTimer;

/**
 * The one Redis client of a process: it owns Lettuce's threads, one shared multiplexed connection for ordinary
 * commands, and a bounded pool of dedicated connections for what must not share it. Thread-safe. Every feature
 * module is built from it ({@code Locks.create(redkit, …)}); {@link #close()} lets calls in flight finish first.
 */
public final class Redkit implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Redkit.class);
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private final RedkitConfig config;
    private final MeterRegistry meters;
    private final ObservationRegistry observations;
    private final WheelTimer timer;
    private final ClientResources resources;
    private final LettuceConnector connector;
    private final StatefulConnection<String, byte[]> shared;
    private final Lifecycle lifecycle = new Lifecycle();
    private final RedisOps requestOps;
    private final RedisOps backgroundOps;
    private final DedicatedPool pool;
    private final DefaultRedisPubSub pubSub;
    private final PubSubSeam shardedPubSub;
    private final CommandExecutor requestExecutor;
    private final DefaultScriptRegistry scripts;
    private final Object replicaLock = new Object();
    private volatile ReplicaReads replicaReads;
    private final AtomicBoolean closed = new AtomicBoolean();

    /*
     * Whatever fails after the first thread or socket exists closes everything opened so far, so that a bad
     * configuration retried in a loop leaks neither connections nor threads.
     */
    private Redkit(RedkitConfig config) {
        this.config = config;
        this.meters = config.meterRegistry() != null ? config.meterRegistry() : new SimpleMeterRegistry();
        this.observations = config.observationRegistry() != null ? config.observationRegistry()
                : ObservationRegistry.NOOP;
        Cleanup cleanup = new Cleanup();
        try {
            this.timer = cleanup.add(new WheelTimer(config.name()), WheelTimer::stop);
            DefaultClientResources.Builder resourceBuilder = DefaultClientResources.builder()
                    // Lettuce's default backs off to 30 s between reconnects; a Sentinel failover takes seconds.
                    .reconnectDelay(Delay.exponential(Duration.ofMillis(1), config.maxReconnectDelay(), 2,
                            TimeUnit.MILLISECONDS))
                    // redkit times commands itself, on the caller's thread (see RedkitMetrics).
                    .commandLatencyRecorder(CommandLatencyRecorder.disabled())
                    // One timer thread per client, shared with redkit's own deadlines; stopped by close().
                    .timer(timer.netty());
            if (config.consolidateFlushes()) {
                // One socket write for the commands of many callers instead of one each (see FlushConsolidation).
                resourceBuilder.nettyCustomizer(new FlushConsolidation());
            }
            if (config.traceCommands()) {
                resourceBuilder.tracing(new MicrometerTracing(config.observationRegistry(), config.name(), false));
            }
            this.resources = cleanup.add(resourceBuilder.build(),
                    r -> r.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            this.connector = cleanup.add(LettuceConnector.create(config, resources), c -> c.shutdown(SHUTDOWN_TIMEOUT));
            try {
                this.shared = cleanup.add(connector.connect(), StatefulConnection::close);
            } catch (RuntimeException e) {
                throw ExceptionTranslator.translate("connect to " + config.maskedUrl(), e, config.connectTimeout());
            }
            this.scripts = new DefaultScriptRegistry(shared, config.connectTimeout());
            connector.onConnected(scripts::connected);
            connector.onTopologyChange(scripts::topologyChanged);
            RedkitMetrics metrics = new RedkitMetrics(meters, config.name());
            CommandExecutor request = new CommandExecutor(() -> LettuceConnector.async(shared),
                    config.requestProfile(), metrics, timer.netty(), lifecycle, () -> { });
            this.requestExecutor = request;
            this.requestOps = new DefaultRedisOps(request);
            this.backgroundOps = new DefaultRedisOps(request.withProfile(config.backgroundProfile()));
            this.pool = cleanup.add(new DedicatedPool(config.dedicatedPool(), connector,
                    lease -> new DefaultRedisOps(new CommandExecutor(() -> LettuceConnector.async(lease.connection()),
                            config.requestProfile(), metrics, timer.netty(), lifecycle, lease::markUnhealthy)),
                    metrics), DedicatedPool::close);
            this.pubSub = new DefaultRedisPubSub(() -> connecting("pub/sub", connector::connectPubSub),
                    DefaultRedisPubSub.Kind.CLASSIC, config.backgroundProfile().timeout());
            this.shardedPubSub = config.topology() == Topology.CLUSTER
                    ? new ClusterShardedPubSub(() -> connecting("sharded pub/sub", connector::connectClusterPubSub),
                            connector::refreshTopology, timer, config.backgroundProfile().timeout())
                    : new DefaultRedisPubSub(() -> connecting("sharded pub/sub", connector::connectPubSub),
                            DefaultRedisPubSub.Kind.SHARDED, config.backgroundProfile().timeout());
        } catch (RuntimeException | Error e) {
            cleanup.closeAll(e);
            throw e;
        }
        log.info("redkit '{}' connected to {} ({})", config.name(), config.maskedUrl(), config.topology());
    }

    private <C> C connecting(String what, java.util.function.Supplier<C> connect) {
        try {
            return connect.get();
        } catch (RuntimeException e) {
            throw ExceptionTranslator.translate("connect " + what + " to " + config.maskedUrl(), e,
                    config.connectTimeout());
        }
    }

    /** Connects with {@code config}; fails with {@link RedisUnavailableException} when Redis cannot be reached. */
    public static Redkit create(RedkitConfig config) {
        return new Redkit(config);
    }

    /** Connects to {@code url} with every other setting at its default. */
    public static Redkit connect(String url) {
        return create(RedkitConfig.fromUrl(url));
    }

    /** Connects to {@code REDIS_URL}. */
    public static Redkit fromEnv() {
        return create(RedkitConfig.fromEnv());
    }

    /** Commands on the shared connection under the request profile (300 ms, ≤ 1 retry). */
    public RedisOps commands() {
        return requestOps;
    }

    /** Commands on the shared connection under the background profile (1 s, 3 retries with backoff). */
    public RedisOps background() {
        return backgroundOps;
    }

    /**
     * The read commands of the request profile, from the master ({@link ReadFrom#MASTER}: the same as
     * {@link #commands()}) or from replicas when one is up ({@link ReadFrom#REPLICA_PREFERRED}, on its own
     * connection, opened on first use; when it cannot be opened yet, reads fail at once as not executed and it is
     * tried again in the background). For caches only: a replica may return what the master already deleted.
     */
    public RedisReads reads(ReadFrom readFrom) {
        if (Objects.requireNonNull(readFrom, "readFrom") == ReadFrom.MASTER || config.topology() == Topology.STANDALONE) {
            return requestOps;
        }
        ReplicaReads reads = replicaReads;
        if (reads != null) {
            return reads;
        }
        synchronized (replicaLock) {
            if (replicaReads == null) {
                if (closed.get()) {
                    throw new RedisUnavailableException("redkit '" + config.name() + "' is closed; not executed",
                            Outcome.NOT_EXECUTED, null);
                }
                replicaReads = new ReplicaReads(() -> {
                    try {
                        return connector.connectReplicaReads();
                    } catch (RuntimeException e) {
                        throw ExceptionTranslator.translate("connect replica reads to " + config.maskedUrl(), e,
                                config.connectTimeout());
                    }
                }, connection -> new DefaultRedisOps(new CommandExecutor(() -> LettuceConnector.async(connection),
                        config.requestProfile(), requestExecutor.metrics(), timer.netty(), lifecycle, () -> { })));
            }
            return replicaReads;
        }
    }

    /**
     * Reads on a new connection the server tracks ({@code CLIENT TRACKING}), for a near cache that the server itself
     * invalidates: a write by any client, an expiry, an eviction or a flush reaches {@code listener}, pushed on that
     * connection (RESP3), or, when it speaks RESP2, on a subscribed connection of its own ({@code REDIRECT}; on
     * Cluster one per master, to that master). With no {@code broadcastPrefixes} the server remembers each
     * key read there (its tracking table, bounded by {@code tracking-table-max-keys}); with some, it tracks nothing
     * per reader and announces every change of a key starting with one of them ({@code BCAST}). Under Sentinel the
     * connection follows the master through a failover and turns tracking on again; on Cluster each read goes to its
     * slot's master on a tracked connection of its own, and a topology change is a reset. The caller closes it.
     *
     * @throws TrackingRefusedException when the server refuses tracking (its answer in the message)
     * @throws RedisUnavailableException when no connection can be opened
     */
    public TrackedReads trackedReads(List<String> broadcastPrefixes, InvalidationListener listener) {
        List<String> prefixes = List.copyOf(Objects.requireNonNull(broadcastPrefixes, "broadcastPrefixes"));
        Objects.requireNonNull(listener, "listener");
        if (closed.get()) {
            throw new RedisUnavailableException("redkit '" + config.name() + "' is closed; not executed",
                    Outcome.NOT_EXECUTED, null);
        }
        Function<StatefulRedisConnection<String, byte[]>, RedisOps> opsOf = c -> new DefaultRedisOps(
                new CommandExecutor(() -> LettuceConnector.async(c), config.requestProfile(),
                        requestExecutor.metrics(), timer.netty(), lifecycle, () -> { }));
        StatefulConnection<String, byte[]> connection = connecting("tracked reads", connector::connect);
        if (connection instanceof StatefulRedisClusterConnection<String, byte[]> cluster) {
            TrackedClusterReads reads = TrackedClusterReads.open(cluster, opsOf, prefixes, listener,
                    connector::refreshTopology, config.connectTimeout(),
                    (host, port) -> codec -> connector.connectPubSubAsync(codec, host, port));
            connector.onTopologyChange(reads::topologyChanged);
            return reads;
        }
        return TrackedConnection.open((StatefulRedisConnection<String, byte[]>) connection, opsOf, prefixes,
                listener, config.connectTimeout(), connector::connectPubSubAsync);
    }

    /**
     * The scripts this client keeps loaded on every server it talks to; feature modules register theirs when they are
     * built, so that a first call is one {@code EVALSHA} even on a fresh or restarted server.
     */
    public ScriptRegistry scripts() {
        return scripts;
    }

    /**
     * Borrows a dedicated connection, waiting up to the pool wait; close it to give it back.
     *
     * @throws PoolExhaustedException when none became free in time
     */
    public DedicatedConnection dedicated() {
        return pool.acquire();
    }

    /** Runs {@code work} on a dedicated connection and gives it back afterwards. */
    public <T> T withDedicated(Function<RedisOps, T> work) {
        try (DedicatedConnection connection = pool.acquire()) {
            return work.apply(connection.ops());
        }
    }

    /** Pub/sub on one subscriber connection, opened on first use; messages are signals, not a queue. */
    public RedisPubSub pubSub() {
        if (closed.get()) {
            throw new RedkitException("redkit '" + config.name() + "' is closed; not executed",
                    Outcome.NOT_EXECUTED, null);
        }
        return pubSub;
    }

    /**
     * Sharded pub/sub (SSUBSCRIBE/SPUBLISH, Redis 7) on its own subscriber connections, opened on first use; publish
     * with {@link RedisOps#spublish}. A channel lives in the hash slot of its name: on Cluster, only the shard that
     * owns the slot carries its messages, where a classic PUBLISH is copied to every node. A subscription follows
     * its slot to a new master after a failover or a resharding; messages published meanwhile are lost, and
     * {@link RedisPubSub#onReconnect} runs once it is confirmed again. On a single server it behaves as
     * {@link #pubSub()} does.
     */
    public RedisPubSub shardedPubSub() {
        if (closed.get()) {
            throw new RedkitException("redkit '" + config.name() + "' is closed; not executed",
                    Outcome.NOT_EXECUTED, null);
        }
        return shardedPubSub;
    }

    /** The configuration this client runs with. */
    public RedkitConfig config() {
        return config;
    }

    /** The topology this client is connected to. */
    public Topology topology() {
        return config.topology();
    }

    /** Where this client's meters are (the configured registry, or a private one). */
    public MeterRegistry meters() {
        return meters;
    }

    /**
     * Where the features' observations go ({@link RedkitConfig#observationRegistry()}), or the no-op registry, on
     * which observing costs one check.
     */
    public ObservationRegistry observations() {
        return observations;
    }

    /** The time source of this client and of every feature built on it ({@link RedkitConfig#clock()}). */
    public RedkitClock clock() {
        return config.clock();
    }

    /** The client's timer, for features' deadlines; it stops when the client closes. */
    public RedkitTimer timer() {
        return timer;
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Refuses new calls, waits for calls in flight (up to twice the longest profile timeout), then closes the
     * connections and Lettuce's threads. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Duration longest = config.requestProfile().timeout().compareTo(config.backgroundProfile().timeout()) > 0
                ? config.requestProfile().timeout() : config.backgroundProfile().timeout();
        if (!lifecycle.closeAndDrain(longest.multipliedBy(2))) {
            log.warn("redkit '{}' closing with calls still in flight", config.name());
        }
        pool.close();
        pubSub.close();
        shardedPubSub.close();
        synchronized (replicaLock) {
            if (replicaReads != null) {
                replicaReads.close();
            }
        }
        shared.close();
        connector.shutdown(SHUTDOWN_TIMEOUT);
        resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        timer.stop();
        log.info("redkit '{}' closed", config.name());
    }

    @Override
    public String toString() {
        return "Redkit{" + config.name() + ", " + config.maskedUrl() + ", " + config.topology() + "}";
    }
}
