package io.redkit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
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
public interface RedisOps extends RedisReads {

    /**
     * Runs any Redis command with redkit's timeout, retry policy, error translation and metrics: the escape hatch
     * for users, for commands this interface does not name. Feature modules do not use it (it hands out Lettuce
     * types). {@code call} must issue exactly one command and return its future; whatever it throws was thrown
     * before anything was sent, so a Lettuce exception becomes a NOT_EXECUTED failure and any other exception is
     * rethrown as it is.
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

    /** {@code GETEX key PX ttl}: the value, its time to live renewed in the same round trip; empty when none. */
    Optional<byte[]> getEx(String key, Duration ttl);

    /** GET decoded as UTF-8. */
    default Optional<String> getString(String key) {
        return get(key).map(v -> new String(v, StandardCharsets.UTF_8));
    }

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

    /** {@code SET key value NX PX ttl} without blocking: true when this call created the key. Not retried after a timeout. */
    CompletableFuture<Boolean> setIfAbsentAsync(String key, byte[] value, Duration ttl);

    /** INCR: never retried after a timeout, because it may have run. */
    long incr(String key);

    /** INCRBY: never retried after a timeout, because it may have run. */
    long incrBy(String key, long delta);

    /** DEL: how many of the keys existed. */
    long delete(String... keys);

    /** UNLINK (frees memory in the background): how many of the keys existed. */
    long unlink(String... keys);

    /**
     * UNLINK without blocking; the future fails with the same exceptions. Whatever is sent on this seam after it
     * (by this thread, or under one lock) runs after it on the server.
     */
    CompletableFuture<Long> unlinkAsync(String... keys);

    /** How many of the keys exist. */
    long exists(String... keys);

    /** PEXPIRE: false when the key does not exist. */
    boolean expire(String key, Duration ttl);

    /** PTTL: the remaining time to live; empty when the key does not exist or never expires. */
    Optional<Duration> ttl(String key);

    /**
     * SCAN with {@code MATCH pattern} over every key of the deployment (on Cluster, of every master in turn),
     * handing each non-empty page to {@code onPage}; never KEYS. A key that exists for the whole scan is seen at
     * least once; one created or deleted meanwhile may or may not be.
     */
    void scan(String pattern, int pageSize, Consumer<List<String>> onPage);

    /** The server's clock ({@code TIME}); on Cluster, of the node that answered. */
    Instant time();

    /** HSET of several fields: how many were new. */
    long hset(String key, Map<String, byte[]> fields);

    /** HGET: the field's value, or empty. */
    Optional<byte[]> hget(String key, String field);

    /** HGETALL: every field; empty when the key does not exist. */
    Map<String, byte[]> hgetAll(String key);

    /** HDEL: how many of the fields existed. */
    long hdel(String key, String... fields);

    /** SADD of UTF-8 members: how many were new. */
    long sadd(String key, String... members);

    /** SREM: how many of the members were there. */
    long srem(String key, String... members);

    /** SMEMBERS, decoded as UTF-8. */
    Set<String> smembers(String key);

    /** SCARD. */
    long scard(String key);

    /** ZADD of one UTF-8 member: 1 when it is new, 0 when only its score changed. */
    long zadd(String key, double score, String member);

    /** ZREM: how many of the members were there. */
    long zrem(String key, String... members);

    /** ZRANGEBYSCORE with {@code LIMIT 0 limit}: members with {@code min ≤ score ≤ max}, lowest first. */
    List<String> zrangeByScore(String key, double min, double max, int limit);

    /** ZREMRANGEBYSCORE: how many members with {@code min ≤ score ≤ max} were removed. */
    long zremRangeByScore(String key, double min, double max);

    /** ZCARD. */
    long zcard(String key);

    /** ZSCORE: the member's score, or empty. */
    OptionalDouble zscore(String key, String member);

    /** The stream commands (XADD, consumer groups, XAUTOCLAIM…) on the same connection and profile. */
    StreamOps streams();

    /** PUBLISH: how many subscribers received it (on Cluster, those on the receiving node). */
    long publish(String channel, byte[] message);

    /**
     * PUBLISH without blocking. Messages published from one thread, or under one lock, leave in that order: they
     * share this seam's connection, which keeps the order they were sent in.
     */
    CompletableFuture<Long> publishAsync(String channel, byte[] message);

    /**
     * SPUBLISH (Redis 7): sends {@code message} to the subscribers of the shard channel through
     * {@link Redkit#shardedPubSub()}; on Cluster it goes to the shard that owns the channel's slot only. Returns how
     * many subscribers of that shard received it.
     */
    long spublish(String channel, byte[] message);

    /** Runs a declared script by SHA; on NOSCRIPT sends it with EVAL once and carries on. */
    <T> T eval(RedisScript<T> script, List<String> keys, byte[]... args);

    /** {@link #eval} of a script that takes no arguments. */
    default <T> T eval(RedisScript<T> script, List<String> keys) {
        return eval(script, keys, new byte[0][]);
    }

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

    /**
     * CONFIG GET of {@code parameters} on every master: one entry per master ({@code host:port}; one on standalone
     * and Sentinel), each the parameters the server knows with their values. For checks a feature makes of the
     * server it runs on (is the append-only file on?); an ACL user without {@code CONFIG} gets a
     * {@link RedisCommandException} ({@code NOPERM}).
     */
    Map<String, Map<String, String>> configGet(String... parameters);
}
