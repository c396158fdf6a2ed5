package io.redkit.stream.internal;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.RedkitException;
import io.redkit.Redkit;
import io.redkit.stream.Once;
import io.redkit.stream.OnceConfig;
import io.redkit.stream.OnceResult;
import io.redkit.stream.StreamScripts;

/**
 * {@link Once} with two markers in one key: {@code 1:running:<token>} under the lease, {@code 1:done} for the
 * window (the leading {@code 1} is the format). Meter {@code redkit.stream.once{outcome=ran|done|in_progress}}.
 */
public final class DefaultOnce implements Once {

    private static final Logger log = LoggerFactory.getLogger(DefaultOnce.class);
    private static final byte[] DONE = "1:done".getBytes(StandardCharsets.UTF_8);
    private static final int MAX_KEY_LENGTH = 200;

    private final OnceConfig config;
    private final KeySchema schema;
    private final RedisOps redis;
    private final Counter ran;
    private final Counter done;
    private final Counter inProgress;

    /** Builds the helper; use {@link Once#create}. */
    public DefaultOnce(Redkit redkit, OnceConfig config) {
        this.config = config;
        this.schema = KeySchema.of(config.namespace());
        this.redis = redkit.commands();
        Tags tags = Tags.of("client", redkit.config().name(), "scope", config.scope());
        this.ran = counter(redkit, tags, "ran");
        this.done = counter(redkit, tags, "done");
        this.inProgress = counter(redkit, tags, "in_progress");
    }

    private static Counter counter(Redkit redkit, Tags tags, String outcome) {
        return Counter.builder("redkit.stream.once").description("Once.run outcomes").tags(tags.and("outcome", outcome))
                .register(redkit.meters());
    }

    @Override
    public <R> OnceResult<R> run(String key, Callable<R> work) throws Exception {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("a key must be 1-" + MAX_KEY_LENGTH + " characters, was '" + key + "'");
        }
        String redisKey = schema.key(config.scope(), key);
        String marker = "1:running:" + UUID.randomUUID();
        // Twice at most: a marker may expire between the failed SET NX and the GET that reads it.
        for (int attempt = 0; attempt < 2; attempt++) {
            if (redis.setIfAbsent(redisKey, marker.getBytes(StandardCharsets.UTF_8), config.leaseTtl())) {
                return runMarked(redisKey, marker, work);
            }
            Optional<byte[]> holder = redis.get(redisKey);
            if (holder.isPresent()) {
                if (java.util.Arrays.equals(holder.get(), DONE)) {
                    done.increment();
                    return new OnceResult.AlreadyDone<>();
                }
                inProgress.increment();
                return new OnceResult.InProgress<>();
            }
        }
        inProgress.increment();
        return new OnceResult.InProgress<>();
    }

    private <R> OnceResult<R> runMarked(String redisKey, String marker, Callable<R> work) throws Exception {
        R value;
        try {
            value = work.call();
        } catch (Exception | Error e) {
            release(redisKey, marker, e);
            throw e;
        }
        // If this write fails the work has run but is not marked done: a redelivery within the lease is told
        // InProgress, one after it runs the work again. The failure is the caller's to see.
        redis.set(redisKey, DONE, config.doneTtl());
        ran.increment();
        return new OnceResult.Ran<>(value);
    }

    private void release(String redisKey, String marker, Throwable cause) {
        try {
            redis.eval(StreamScripts.ONCE_RELEASE, List.of(redisKey), marker);
        } catch (RedkitException e) {
            // The lease expires by itself; until then a redelivery is told InProgress.
            cause.addSuppressed(e);
            log.debug("could not release {} after a failed run", redisKey, e);
        }
    }

    @Override
    public OnceConfig config() {
        return config;
    }

    @Override
    public String toString() {
        return "Once[" + config + "]";
    }
}
