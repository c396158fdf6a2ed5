package io.redkit.stream.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.RedisTimeoutException;
import io.redkit.RedkitException;
import io.redkit.Redkit;
import io.redkit.RedkitTimer;
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
    private final RedisOps settle;
    private final RedkitTimer timer;
    private final Counter ran;
    private final Counter done;
    private final Counter inProgress;

    /** Builds the helper; use {@link Once#create}. */
    public DefaultOnce(Redkit redkit, OnceConfig config) {
        this.config = config;
        redkit.scripts().register(StreamScripts.ALL);
        this.schema = KeySchema.of(config.namespace());
        this.redis = redkit.commands();
        // The same shared connection with a longer timeout: what it sends runs after what timed out on it.
        this.settle = redkit.background();
        this.timer = redkit.timer();
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
        byte[] marker = ("1:running:" + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
        byte[] lease = String.valueOf(config.leaseTtl().toMillis()).getBytes(StandardCharsets.UTF_8);
        List<Object> reply;
        try {
            reply = redis.eval(StreamScripts.ONCE_BEGIN, List.of(redisKey), marker, lease);
        } catch (RedisTimeoutException unknown) {
            // The marking may have run. Sent again with the same token it runs after the first on this connection:
            // it sets the key if the first did not, and reads our own token back if it did.
            try {
                reply = settle.eval(StreamScripts.ONCE_BEGIN, List.of(redisKey), marker, lease);
            } catch (RedkitException again) {
                unknown.addSuppressed(again);
                throw unknown;
            }
        }
        if ((Long) reply.get(0) == 1) {
            return runMarked(redisKey, marker, work);
        }
        byte[] holder = (byte[]) reply.get(1);
        if (Arrays.equals(holder, marker)) {
            return runMarked(redisKey, marker, work); // our first marking ran; its reply was lost
        }
        if (Arrays.equals(holder, DONE)) {
            done.increment();
            return new OnceResult.AlreadyDone<>();
        }
        inProgress.increment();
        return new OnceResult.InProgress<>(Duration.ofMillis(Math.max(0, (Long) reply.get(2))));
    }

    private <R> OnceResult<R> runMarked(String redisKey, byte[] marker, Callable<R> work) throws Exception {
        R value;
        Renewal renewal = new Renewal(redisKey, marker);
        try {
            value = work.call();
        } catch (Exception | Error e) {
            renewal.stop();
            release(redisKey, marker, e);
            throw e;
        }
        renewal.stop();
        // If this write fails the work has run but is not marked done: a redelivery within the lease is told
        // InProgress, one after it runs the work again. The failure is the caller's to see.
        redis.set(redisKey, DONE, config.doneTtl());
        ran.increment();
        return new OnceResult.Ran<>(value);
    }

    private void release(String redisKey, byte[] marker, Throwable cause) {
        try {
            redis.eval(StreamScripts.ONCE_RELEASE, List.of(redisKey), marker);
        } catch (RedkitException e) {
            // The lease expires by itself; until then a redelivery is told InProgress.
            cause.addSuppressed(e);
            log.debug("could not release {} after a failed run", redisKey, e);
        }
    }

    /**
     * Renews the running marker every third of the lease while the work runs, so that work longer than the lease
     * is not run a second time by a redelivery; without blocking, from the client's timer.
     */
    private final class Renewal {
        private final String key;
        private final byte[] marker;
        private final byte[] lease;
        private volatile boolean stopped;
        private volatile RedkitTimer.Scheduled next;

        Renewal(String key, byte[] marker) {
            this.key = key;
            this.marker = marker;
            this.lease = String.valueOf(config.leaseTtl().toMillis()).getBytes(StandardCharsets.UTF_8);
            schedule();
        }

        private void schedule() {
            if (stopped) {
                return;
            }
            try {
                next = timer.schedule(this::renew, config.leaseTtl().toNanos() / 3);
            } catch (RejectedExecutionException e) {
                // the client is closed
            }
        }

        private void renew() {
            settle.evalAsync(StreamScripts.ONCE_EXTEND, List.of(key), marker, lease).whenComplete((renewed, e) -> {
                if (e == null && renewed == 0) {
                    log.warn("{}: the running marker was no longer ours when its work still ran (its lease ran out"
                            + " while the process was paused?); another delivery may run it too", key);
                    return;
                }
                schedule();
            });
        }

        void stop() {
            stopped = true;
            RedkitTimer.Scheduled s = next;
            if (s != null) {
                s.cancel();
            }
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
