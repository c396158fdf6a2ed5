package io.redkit.internal;

import static io.redkit.internal.CommandArguments.keyArray;
import static io.redkit.internal.CommandArguments.nonEmpty;
import static io.redkit.internal.CommandArguments.nonEmptyKeyArray;
import static io.redkit.internal.CommandArguments.requireKey;
import static io.redkit.internal.CommandArguments.ttlMillis;
import static io.redkit.internal.CommandArguments.utf8;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

import io.lettuce.core.GetExArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.redkit.CommandProfile;
import io.redkit.Idempotency;
import io.redkit.RedisOps;
import io.redkit.RedisScript;
import io.redkit.StreamOps;

/**
 * {@link RedisOps} over one {@link CommandExecutor}: each method names its command and says whether it is
 * idempotent; the executor does the rest.
 */
public final class DefaultRedisOps implements RedisOps {

    private final CommandExecutor executor;
    private final StreamOps streams;
    private final ScriptCalls scripts;

    /** Creates the seam over an executor. */
    public DefaultRedisOps(CommandExecutor executor) {
        this.executor = executor;
        this.streams = new DefaultStreamOps(executor);
        this.scripts = new ScriptCalls(executor);
    }

    @Override
    public <T> T execute(String command, Idempotency idempotency,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call) {
        return executor.execute(command, idempotency, call);
    }

    @Override
    public <T> CompletableFuture<T> executeAsync(String command, Idempotency idempotency,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call) {
        return executor.executeAsync(command, idempotency, call);
    }

    @Override
    public RedisOps withTimeout(Duration timeout) {
        return new DefaultRedisOps(executor.withProfile(executor.profile().withTimeout(timeout)));
    }

    @Override
    public CommandProfile profile() {
        return executor.profile();
    }

    @Override
    public Optional<byte[]> get(String key) {
        requireKey(key);
        return Optional.ofNullable(executor.execute("GET", Idempotency.IDEMPOTENT, c -> c.get(key)));
    }

    @Override
    public CompletableFuture<Optional<byte[]>> getAsync(String key) {
        requireKey(key);
        return executor.executeAsync("GET", Idempotency.IDEMPOTENT, c -> c.get(key)).thenApply(Optional::ofNullable);
    }

    @Override
    public Optional<byte[]> getEx(String key, Duration ttl) {
        requireKey(key);
        GetExArgs args = GetExArgs.Builder.px(ttlMillis(ttl));
        return Optional.ofNullable(executor.execute("GETEX", Idempotency.IDEMPOTENT, c -> c.getex(key, args)));
    }

    @Override
    public List<Optional<byte[]>> mget(List<String> keys) {
        Objects.requireNonNull(keys, "keys");
        if (keys.isEmpty()) {
            return List.of();
        }
        String[] array = keyArray(keys);
        List<KeyValue<String, byte[]>> values = executor.execute("MGET", Idempotency.IDEMPOTENT, c -> c.mget(array));
        List<Optional<byte[]>> result = new ArrayList<>(values.size());
        for (KeyValue<String, byte[]> kv : values) {
            result.add(kv.hasValue() ? Optional.of(kv.getValue()) : Optional.empty());
        }
        return result;
    }

    @Override
    public void set(String key, byte[] value) {
        requireKey(key);
        Objects.requireNonNull(value, "value");
        executor.execute("SET", Idempotency.IDEMPOTENT, c -> c.set(key, value));
    }

    @Override
    public void set(String key, byte[] value, Duration ttl) {
        requireKey(key);
        Objects.requireNonNull(value, "value");
        SetArgs args = SetArgs.Builder.px(ttlMillis(ttl));
        executor.execute("SET", Idempotency.IDEMPOTENT, c -> c.set(key, value, args));
    }

    @Override
    public CompletableFuture<Void> setAsync(String key, byte[] value, Duration ttl) {
        requireKey(key);
        Objects.requireNonNull(value, "value");
        SetArgs args = SetArgs.Builder.px(ttlMillis(ttl));
        return executor.executeAsync("SET", Idempotency.IDEMPOTENT, c -> c.set(key, value, args))
                .thenApply(ok -> null);
    }

    @Override
    public boolean setIfAbsent(String key, byte[] value, Duration ttl) {
        requireKey(key);
        Objects.requireNonNull(value, "value");
        SetArgs args = SetArgs.Builder.nx().px(ttlMillis(ttl));
        return "OK".equals(executor.execute("SET NX", Idempotency.NON_IDEMPOTENT, c -> c.set(key, value, args)));
    }

    @Override
    public CompletableFuture<Boolean> setIfAbsentAsync(String key, byte[] value, Duration ttl) {
        requireKey(key);
        Objects.requireNonNull(value, "value");
        SetArgs args = SetArgs.Builder.nx().px(ttlMillis(ttl));
        return executor.executeAsync("SET NX", Idempotency.NON_IDEMPOTENT, c -> c.set(key, value, args))
                .thenApply("OK"::equals);
    }

    @Override
    public long incr(String key) {
        requireKey(key);
        return executor.execute("INCR", Idempotency.NON_IDEMPOTENT, c -> c.incr(key));
    }

    @Override
    public long incrBy(String key, long delta) {
        requireKey(key);
        return executor.execute("INCRBY", Idempotency.NON_IDEMPOTENT, c -> c.incrby(key, delta));
    }

    @Override
    public long delete(String... keys) {
        String[] array = nonEmptyKeyArray(keys);
        return executor.execute("DEL", Idempotency.IDEMPOTENT, c -> c.del(array));
    }

    @Override
    public long unlink(String... keys) {
        String[] array = nonEmptyKeyArray(keys);
        return executor.execute("UNLINK", Idempotency.IDEMPOTENT, c -> c.unlink(array));
    }

    @Override
    public CompletableFuture<Long> unlinkAsync(String... keys) {
        String[] array = nonEmptyKeyArray(keys);
        return executor.executeAsync("UNLINK", Idempotency.IDEMPOTENT, c -> c.unlink(array));
    }

    @Override
    public long exists(String... keys) {
        String[] array = nonEmptyKeyArray(keys);
        return executor.execute("EXISTS", Idempotency.IDEMPOTENT, c -> c.exists(array));
    }

    @Override
    public boolean expire(String key, Duration ttl) {
        requireKey(key);
        long ms = ttlMillis(ttl);
        return executor.execute("PEXPIRE", Idempotency.IDEMPOTENT, c -> c.pexpire(key, ms));
    }

    @Override
    public Optional<Duration> ttl(String key) {
        requireKey(key);
        long ms = executor.execute("PTTL", Idempotency.IDEMPOTENT, c -> c.pttl(key));
        return remaining(ms);
    }

    @Override
    public CompletableFuture<Optional<Duration>> ttlAsync(String key) {
        requireKey(key);
        return executor.executeAsync("PTTL", Idempotency.IDEMPOTENT, c -> c.pttl(key))
                .thenApply(DefaultRedisOps::remaining);
    }

    /** PTTL's reply: -2 (no key) and -1 (no expiry) are no remaining time to live. */
    private static Optional<Duration> remaining(long ms) {
        return ms < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(ms));
    }

    @Override
    public void scan(String pattern, int pageSize, Consumer<List<String>> onPage) {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(onPage, "onPage");
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize must be at least 1, was " + pageSize);
        }
        ScanArgs args = ScanArgs.Builder.matches(pattern).limit(pageSize);
        // On Cluster, Lettuce's cursor walks every master in turn; the same loop serves both topologies.
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            ScanCursor current = cursor;
            KeyScanCursor<String> page = executor.execute("SCAN", Idempotency.IDEMPOTENT, c -> c.scan(current, args));
            if (!page.getKeys().isEmpty()) {
                onPage.accept(List.copyOf(page.getKeys()));
            }
            cursor = page;
        } while (!cursor.isFinished());
    }

    @Override
    public Map<String, Map<String, String>> configGet(String... parameters) {
        if (parameters.length == 0) {
            throw new IllegalArgumentException("at least one parameter is required");
        }
        String[] names = parameters.clone();
        Map<String, Map<String, String>> byMaster = new LinkedHashMap<>();
        executor.executeOnMasters("CONFIG", Idempotency.IDEMPOTENT, c -> c.configGet(names))
                .forEach((master, values) -> byMaster.put(master, Map.copyOf(values)));
        return byMaster;
    }

    @Override
    public Instant time() {
        List<byte[]> reply = executor.execute("TIME", Idempotency.IDEMPOTENT, RedisClusterAsyncCommands::time);
        long seconds = Long.parseLong(utf8(reply.get(0)));
        long micros = Long.parseLong(utf8(reply.get(1)));
        return Instant.ofEpochSecond(seconds, micros * 1_000);
    }

    @Override
    public long hset(String key, Map<String, byte[]> fields) {
        requireKey(key);
        if (Objects.requireNonNull(fields, "fields").isEmpty()) {
            throw new IllegalArgumentException("at least one field is required");
        }
        Map<String, byte[]> copy = new LinkedHashMap<>(fields);
        return executor.execute("HSET", Idempotency.IDEMPOTENT, c -> c.hset(key, copy));
    }

    @Override
    public Optional<byte[]> hget(String key, String field) {
        requireKey(key);
        Objects.requireNonNull(field, "field");
        return Optional.ofNullable(executor.execute("HGET", Idempotency.IDEMPOTENT, c -> c.hget(key, field)));
    }

    @Override
    public Map<String, byte[]> hgetAll(String key) {
        requireKey(key);
        return executor.execute("HGETALL", Idempotency.IDEMPOTENT, c -> c.hgetall(key));
    }

    @Override
    public long hdel(String key, String... fields) {
        requireKey(key);
        String[] array = nonEmpty("field", fields);
        return executor.execute("HDEL", Idempotency.IDEMPOTENT, c -> c.hdel(key, array));
    }

    @Override
    public long sadd(String key, String... members) {
        requireKey(key);
        byte[][] values = utf8(nonEmpty("member", members));
        return executor.execute("SADD", Idempotency.IDEMPOTENT, c -> c.sadd(key, values));
    }

    @Override
    public long srem(String key, String... members) {
        requireKey(key);
        byte[][] values = utf8(nonEmpty("member", members));
        return executor.execute("SREM", Idempotency.IDEMPOTENT, c -> c.srem(key, values));
    }

    @Override
    public Set<String> smembers(String key) {
        requireKey(key);
        Set<byte[]> members = executor.execute("SMEMBERS", Idempotency.IDEMPOTENT, c -> c.smembers(key));
        Set<String> result = new LinkedHashSet<>(members.size());
        members.forEach(m -> result.add(utf8(m)));
        return result;
    }

    @Override
    public long scard(String key) {
        requireKey(key);
        return executor.execute("SCARD", Idempotency.IDEMPOTENT, c -> c.scard(key));
    }

    @Override
    public long zadd(String key, double score, String member) {
        requireKey(key);
        byte[] value = Objects.requireNonNull(member, "member").getBytes(StandardCharsets.UTF_8);
        return executor.execute("ZADD", Idempotency.IDEMPOTENT, c -> c.zadd(key, score, value));
    }

    @Override
    public long zrem(String key, String... members) {
        requireKey(key);
        byte[][] values = utf8(nonEmpty("member", members));
        return executor.execute("ZREM", Idempotency.IDEMPOTENT, c -> c.zrem(key, values));
    }

    @Override
    public List<String> zrangeByScore(String key, double min, double max, int limit) {
        requireKey(key);
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        List<byte[]> members = executor.execute("ZRANGEBYSCORE", Idempotency.IDEMPOTENT,
                c -> c.zrangebyscore(key, Range.create(min, max), Limit.create(0, limit)));
        List<String> result = new ArrayList<>(members.size());
        members.forEach(m -> result.add(utf8(m)));
        return result;
    }

    @Override
    public long zremRangeByScore(String key, double min, double max) {
        requireKey(key);
        return executor.execute("ZREMRANGEBYSCORE", Idempotency.IDEMPOTENT,
                c -> c.zremrangebyscore(key, Range.create(min, max)));
    }

    @Override
    public long zcard(String key) {
        requireKey(key);
        return executor.execute("ZCARD", Idempotency.IDEMPOTENT, c -> c.zcard(key));
    }

    @Override
    public OptionalDouble zscore(String key, String member) {
        requireKey(key);
        byte[] value = Objects.requireNonNull(member, "member").getBytes(StandardCharsets.UTF_8);
        Double score = executor.execute("ZSCORE", Idempotency.IDEMPOTENT, c -> c.zscore(key, value));
        return score == null ? OptionalDouble.empty() : OptionalDouble.of(score);
    }

    @Override
    public StreamOps streams() {
        return streams;
    }

    @Override
    public long publish(String channel, byte[] message) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(message, "message");
        return executor.execute("PUBLISH", Idempotency.NON_IDEMPOTENT, c -> c.publish(channel, message));
    }

    @Override
    public long spublish(String channel, byte[] message) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(message, "message");
        return executor.execute("SPUBLISH", Idempotency.NON_IDEMPOTENT, c -> c.spublish(channel, message));
    }

    @Override
    public CompletableFuture<Long> publishAsync(String channel, byte[] message) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(message, "message");
        return executor.executeAsync("PUBLISH", Idempotency.NON_IDEMPOTENT, c -> c.publish(channel, message));
    }

    @Override
    public <T> T eval(RedisScript<T> script, List<String> keys, byte[]... args) {
        return scripts.eval(script, keys, args);
    }

    @Override
    public <T> CompletableFuture<T> evalAsync(RedisScript<T> script, List<String> keys, byte[]... args) {
        return scripts.evalAsync(script, keys, args);
    }

    @Override
    public String ping() {
        return executor.execute("PING", Idempotency.IDEMPOTENT, RedisClusterAsyncCommands::ping);
    }
}
