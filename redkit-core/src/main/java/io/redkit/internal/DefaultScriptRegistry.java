package io.redkit.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.redkit.RedisScript;
import io.redkit.ScriptRegistry;

/**
 * Keeps the registered scripts in every server's script cache. The cache belongs to the server, not to a
 * connection, and is emptied by a restart; so every data connection that opens or reopens sends {@code SCRIPT LOAD}
 * of every script before anything else (it is written from the event loop as the connection becomes active, ahead
 * of any command a caller can send on it), and on Cluster every node of the view is walked again after each
 * topology change.
 */
public final class DefaultScriptRegistry implements ScriptRegistry {

    private static final Logger log = LoggerFactory.getLogger(DefaultScriptRegistry.class);

    private final Map<String, RedisScript<?>> scripts = new ConcurrentHashMap<>();
    private final StatefulConnection<String, byte[]> shared;
    private final Duration wait;

    /** A registry loading through {@code shared} (and, on Cluster, its node connections), waiting up to {@code wait}. */
    public DefaultScriptRegistry(StatefulConnection<String, byte[]> shared, Duration wait) {
        this.shared = shared;
        this.wait = wait;
    }

    @Override
    public void register(Collection<? extends RedisScript<?>> given) {
        List<RedisScript<?>> added = new ArrayList<>();
        for (RedisScript<?> script : given) {
            if (scripts.putIfAbsent(Objects.requireNonNull(script, "script").sha1(), script) == null) {
                added.add(script);
            }
        }
        if (!added.isEmpty()) {
            awaitAll(loadEverywhere(added), added);
        }
    }

    @Override
    public Set<RedisScript<?>> registered() {
        return Set.copyOf(scripts.values());
    }

    /**
     * Sends {@code SCRIPT LOAD} of every registered script on a connection that has just become active, without
     * waiting: called on its event loop, so the loads go out before any command a caller sends on it. Subscriber
     * and Sentinel connections are left alone.
     */
    public void connected(RedisChannelHandler<?, ?> connection) {
        if (scripts.isEmpty() || !(connection instanceof StatefulRedisConnection<?, ?> data)
                || connection instanceof StatefulRedisPubSubConnection<?, ?>) {
            return;
        }
        load(data.async(), scripts.values());
    }

    /** Loads every registered script on every node of the Cluster's current view; nothing elsewhere. */
    public void topologyChanged() {
        if (!scripts.isEmpty() && shared instanceof StatefulRedisClusterConnection<?, ?>) {
            loadEverywhere(List.copyOf(scripts.values()));
        }
    }

    private List<CompletableFuture<?>> loadEverywhere(Collection<RedisScript<?>> some) {
        if (!(shared instanceof StatefulRedisClusterConnection<String, byte[]> cluster)) {
            return load(((StatefulRedisConnection<String, byte[]>) shared).async(), some);
        }
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (RedisClusterNode node : cluster.getPartitions()) {
            if (node.getUri() == null || node.is(RedisClusterNode.NodeFlag.FAIL)) {
                continue;
            }
            // Replicas too: the one promoted by a failover then holds the scripts before its first call.
            pending.add(cluster.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort())
                    .thenCompose(c -> CompletableFuture.allOf(load(c.async(), some).toArray(CompletableFuture[]::new)))
                    .toCompletableFuture());
        }
        return pending;
    }

    private static List<CompletableFuture<?>> load(RedisScriptingAsyncCommands<?, ?> commands,
            Collection<RedisScript<?>> some) {
        List<CompletableFuture<?>> pending = new ArrayList<>(some.size());
        for (RedisScript<?> script : some) {
            CompletableFuture<String> loaded;
            try {
                loaded = commands.scriptLoad(script.source()).toCompletableFuture();
            } catch (RuntimeException e) {
                loaded = CompletableFuture.failedFuture(e);
            }
            pending.add(loaded.whenComplete((sha, e) -> {
                if (e != null) {
                    log.debug("SCRIPT LOAD of {} not done ({}); it is sent again when the connection reopens",
                            script.name(), e.toString());
                }
            }));
        }
        return pending;
    }

    private void awaitAll(List<CompletableFuture<?>> pending, List<RedisScript<?>> added) {
        Throwable failure = Futures.awaitAll(pending, wait);
        if (failure != null && !(failure instanceof InterruptedException)) {
            // Not fatal: the loads are sent again when a connection reopens, and EVAL still covers NOSCRIPT.
            log.warn("redkit: scripts {} not loaded on every server yet ({}); a first call there may send the"
                    + " source", added.stream().map(RedisScript::name).toList(),
                    failure instanceof TimeoutException ? "no reply in " + wait : failure.toString());
        }
    }
}
