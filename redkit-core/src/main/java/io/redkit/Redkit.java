package io.redkit;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.tracing.MicrometerTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redkit.internal.CommandExecutor;
import io.redkit.internal.DedicatedPool;
import io.redkit.internal.DefaultRedisOps;
import io.redkit.internal.DefaultRedisPubSub;
import io.redkit.internal.ExceptionTranslator;
import io.redkit.internal.FlushConsolidation;
import io.redkit.internal.LettuceConnector;
import io.redkit.internal.Lifecycle;
import io.redkit.internal.NonIdempotentGuard;
import io.redkit.internal.RedkitMetrics;

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
    private final ClientResources resources;
    private final LettuceConnector connector;
    private final StatefulConnection<String, byte[]> shared;
    private final Lifecycle lifecycle = new Lifecycle();
    private final RedisOps requestOps;
    private final RedisOps backgroundOps;
    private final DedicatedPool pool;
    private final DefaultRedisPubSub pubSub;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Redkit(RedkitConfig config) {
        this.config = config;
        this.meters = config.meterRegistry() != null ? config.meterRegistry() : new SimpleMeterRegistry();
        DefaultClientResources.Builder resourceBuilder = DefaultClientResources.builder()
                // Lettuce's default backs off to 30 s between reconnects; a Sentinel failover takes seconds.
                .reconnectDelay(Delay.exponential(Duration.ofMillis(1), config.maxReconnectDelay(), 2,
                        TimeUnit.MILLISECONDS))
                // redkit times commands itself, on the caller's thread (see RedkitMetrics).
                .commandLatencyRecorder(CommandLatencyRecorder.disabled())
                // One socket write for the commands of many callers instead of one each (see FlushConsolidation).
                .nettyCustomizer(new FlushConsolidation());
        if (config.observationRegistry() != null) {
            resourceBuilder.tracing(new MicrometerTracing(config.observationRegistry(), config.name(), false));
        }
        this.resources = resourceBuilder.build();
        this.connector = LettuceConnector.create(config, resources);
        NonIdempotentGuard guard = new NonIdempotentGuard();
        connector.onDisconnect(guard::connectionLost);
        try {
            this.shared = connector.connect();
        } catch (RuntimeException e) {
            connector.shutdown(SHUTDOWN_TIMEOUT);
            resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            throw ExceptionTranslator.translate("connect to " + config.maskedUrl(), e, config.connectTimeout());
        }
        RedkitMetrics metrics = new RedkitMetrics(meters, config.name());
        CommandExecutor request = new CommandExecutor(() -> LettuceConnector.async(shared),
                config.requestProfile(), metrics, resources.timer(), lifecycle, guard, () -> { });
        this.requestOps = new DefaultRedisOps(request);
        this.backgroundOps = new DefaultRedisOps(request.withProfile(config.backgroundProfile()));
        this.pool = new DedicatedPool(config.dedicatedPool(), connector,
                lease -> new DefaultRedisOps(new CommandExecutor(() -> LettuceConnector.async(lease.connection()),
                        config.requestProfile(), metrics, resources.timer(), lifecycle, guard, lease::markUnhealthy)),
                metrics);
        this.pubSub = new DefaultRedisPubSub(() -> {
            try {
                return connector.connectPubSub();
            } catch (RuntimeException e) {
                throw ExceptionTranslator.translate("connect pub/sub to " + config.maskedUrl(), e,
                        config.connectTimeout());
            }
        }, config.backgroundProfile().timeout());
        log.info("redkit '{}' connected to {} ({})", config.name(), config.maskedUrl(), config.topology());
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

    /** Lettuce's resources (event loops, timer), for feature modules that open their own connections. */
    public ClientResources resources() {
        return resources;
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
        shared.close();
        connector.shutdown(SHUTDOWN_TIMEOUT);
        resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        log.info("redkit '{}' closed", config.name());
    }

    @Override
    public String toString() {
        return "Redkit{" + config.name() + ", " + config.maskedUrl() + ", " + config.topology() + "}";
    }
}
