package io.redkit.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.redkit.CommandProfile;
import io.redkit.Idempotency;
import io.redkit.RedisCommandException;
import io.redkit.RedisOps;
import io.redkit.RedisScript;
import io.redkit.ScriptResult;

/**
 * {@link RedisOps} over one {@link CommandExecutor}: each method names its command and says whether it is
 * idempotent; the executor does the rest.
 */
public final class DefaultRedisOps implements RedisOps {

    private static final String NOSCRIPT = "NOSCRIPT";

    private final CommandExecutor executor;

    /** Creates the seam over an executor. */
    public DefaultRedisOps(CommandExecutor executor) {
        this.executor = executor;
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
        return ms < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(ms));
    }

    @Override
    public long publish(String channel, byte[] message) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(message, "message");
        return executor.execute("PUBLISH", Idempotency.NON_IDEMPOTENT, c -> c.publish(channel, message));
    }

    @Override
    public <T> T eval(RedisScript<T> script, List<String> keys, byte[]... args) {
        String[] keyArray = keyArray(keys);
        ScriptOutputType type = outputType(script.result());
        try {
            return executor.execute("EVALSHA " + script.name(), script.idempotency(),
                    c -> c.evalsha(script.sha1(), type, keyArray, args));
        } catch (RedisCommandException e) {
            if (!NOSCRIPT.equals(e.errorCode())) {
                throw e;
            }
            // NOSCRIPT means the script did not run, so sending the source is safe even for a counting script.
            executor.metrics().scriptReload();
            return executor.execute("EVAL " + script.name(), script.idempotency(),
                    c -> c.eval(script.source(), type, keyArray, args));
        }
    }

    @Override
    public <T> CompletableFuture<T> evalAsync(RedisScript<T> script, List<String> keys, byte[]... args) {
        String[] keyArray = keyArray(keys);
        ScriptOutputType type = outputType(script.result());
        return executor.<T>executeAsync("EVALSHA " + script.name(), script.idempotency(),
                c -> c.evalsha(script.sha1(), type, keyArray, args))
                .exceptionallyCompose(e -> {
                    if (e instanceof RedisCommandException rce && NOSCRIPT.equals(rce.errorCode())) {
                        executor.metrics().scriptReload();
                        return executor.executeAsync("EVAL " + script.name(), script.idempotency(),
                                c -> c.eval(script.source(), type, keyArray, args));
                    }
                    return CompletableFuture.failedFuture(e);
                });
    }

    @Override
    public String ping() {
        return executor.execute("PING", Idempotency.IDEMPOTENT, RedisClusterAsyncCommands::ping);
    }

    private static ScriptOutputType outputType(ScriptResult<?> result) {
        return switch (result.kind()) {
            case INTEGER -> ScriptOutputType.INTEGER;
            case STATUS -> ScriptOutputType.STATUS;
            case BULK -> ScriptOutputType.VALUE;
            case MULTI -> ScriptOutputType.MULTI;
            case BOOLEAN -> ScriptOutputType.BOOLEAN;
        };
    }

    private static long ttlMillis(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, was " + ttl);
        }
        return Math.max(1, ttl.toMillis());
    }

    private static void requireKey(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key must not be null or empty");
        }
    }

    private static String[] nonEmptyKeyArray(String[] keys) {
        if (keys == null || keys.length == 0) {
            throw new IllegalArgumentException("at least one key is required");
        }
        return keyArray(List.of(keys));
    }

    private static String[] keyArray(List<String> keys) {
        Objects.requireNonNull(keys, "keys");
        String[] array = keys.toArray(new String[0]);
        for (String key : array) {
            requireKey(key);
        }
        return array;
    }
}
