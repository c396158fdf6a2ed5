package io.redkit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

/**
 * The one seam between redkit and Redis: every command of every feature goes through here, so timeouts,
 * retries, error translation and metrics happen once. Keys are UTF-8 strings, values are bytes. Works the same on
 * standalone, Sentinel and Cluster; on Cluster, multi-key commands are split per slot by the client.
 *
 * <p>A miss is {@code Optional.empty()}. A failure is a {@link RedkitException}: {@link RedisTimeoutException}
 * (outcome unknown), {@link RedisUnavailableException}, {@link PoolExhaustedException} or
 * {@link RedisCommandException}.
 */
public interface RedisOps {

    /**
     * Runs any Redis command with redkit's timeout, retry policy, error translation and metrics; the escape hatch
     * for commands this interface does not name. {@code call} must issue exactly one command.
     */
    <T> T execute(String command, Idempotency idempotency,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call);

    /** {@link #execute} without blocking the caller; the future fails with the same exceptions. */
    <T> CompletableFuture<T> executeAsync(String command, Idempotency idempotency,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call);

    /** This seam with another per-attempt timeout (for a blocking read on a dedicated connection, say). */
    RedisOps withTimeout(Duration timeout);

    /** The timeout and retry policy of this seam. */
    CommandProfile profile();

    /** GET: the value, or empty when there is none. */
    Optional<byte[]> get(String key);

    /** GET without blocking. */
    CompletableFuture<Optional<byte[]>> getAsync(String key);

    /** GET decoded as UTF-8. */
    default Optional<String> getString(String key) {
        return get(key).map(v -> new String(v, StandardCharsets.UTF_8));
    }

    /** MGET in one round trip (one per slot on Cluster): a value or empty per key, in the order given. */
    List<Optional<byte[]>> mget(List<String> keys);

    /** SET without expiry. */
    void set(String key, byte[] value);

    /** SET with a time to live ({@code PX}). */
    void set(String key, byte[] value, Duration ttl);

    /** SET with a time to live, without blocking. */
    CompletableFuture<Void> setAsync(String key, byte[] value, Duration ttl);

    /** SET of a UTF-8 string with a time to live. */
    default void setString(String key, String value, Duration ttl) {
        set(key, value.getBytes(StandardCharsets.UTF_8), ttl);
    }

    /** {@code SET key value NX PX ttl}: true when this call created the key. Not retried after a timeout. */
    boolean setIfAbsent(String key, byte[] value, Duration ttl);

    /** INCR: never retried after a timeout, because it may have run. */
    long incr(String key);

    /** INCRBY: never retried after a timeout, because it may have run. */
    long incrBy(String key, long delta);

    /** DEL: how many of the keys existed. */
    long delete(String... keys);

    /** UNLINK (frees memory in the background): how many of the keys existed. */
    long unlink(String... keys);

    /** How many of the keys exist. */
    long exists(String... keys);

    /** PEXPIRE: false when the key does not exist. */
    boolean expire(String key, Duration ttl);

    /** PTTL: the remaining time to live; empty when the key does not exist or never expires. */
    Optional<Duration> ttl(String key);

    /** PUBLISH: how many subscribers received it (on Cluster, those on the receiving node). */
    long publish(String channel, byte[] message);

    /** Runs a declared script by SHA; on NOSCRIPT sends it with EVAL once and carries on. */
    <T> T eval(RedisScript<T> script, List<String> keys, byte[]... args);

    /** {@link #eval} with UTF-8 string arguments. */
    default <T> T eval(RedisScript<T> script, List<String> keys, String... args) {
        byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            bytes[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return eval(script, keys, bytes);
    }

    /** {@link #eval} without blocking. */
    <T> CompletableFuture<T> evalAsync(RedisScript<T> script, List<String> keys, byte[]... args);

    /** PING: the server's reply ({@code PONG}). */
    String ping();
}
