package io.redkit.internal;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.micrometer.core.instrument.Timer;
import io.netty.util.Timeout;

import io.redkit.CommandProfile;
import io.redkit.Idempotency;
import io.redkit.Outcome;
import io.redkit.RedisTimeoutException;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitException;

/**
 * Runs one command under a {@link CommandProfile}: applies the timeout (Lettuce's own command timeout is off, so
 * that a blocking read on a dedicated connection can wait longer than a GET), retries what is safe to retry,
 * translates errors and counts failures. Sync callers wait on the future directly, so the hot path schedules no
 * timer; async callers get one on Lettuce's shared wheel timer.
 */
public final class CommandExecutor {

    private final Supplier<RedisClusterAsyncCommands<String, byte[]>> commands;
    private final CommandProfile profile;
    private final RedkitMetrics metrics;
    private final io.netty.util.Timer timer;
    private final Lifecycle lifecycle;
    private final Runnable onTimeout;
    private final NonIdempotentGuard guard;
    private final long timeoutNanos;
    private final Map<String, Timer> latencies = new ConcurrentHashMap<>();

    /** Creates an executor; {@code onTimeout} runs after every timeout (a dedicated connection marks itself bad). */
    public CommandExecutor(Supplier<RedisClusterAsyncCommands<String, byte[]>> commands, CommandProfile profile,
            RedkitMetrics metrics, io.netty.util.Timer timer, Lifecycle lifecycle, NonIdempotentGuard guard, Runnable onTimeout) {
        this.commands = commands;
        this.profile = profile;
        this.metrics = metrics;
        this.timer = timer;
        this.lifecycle = lifecycle;
        this.onTimeout = onTimeout;
        this.guard = guard;
        this.timeoutNanos = profile.timeout().toNanos();
    }

    /** The same executor under another profile. */
    public CommandExecutor withProfile(CommandProfile other) {
        return new CommandExecutor(commands, other, metrics, timer, lifecycle, guard, onTimeout);
    }

    /** The profile in force. */
    public CommandProfile profile() {
        return profile;
    }

    /** The meters. */
    public RedkitMetrics metrics() {
        return metrics;
    }

    /** Runs {@code call} and waits for its reply. */
    public <T> T execute(String command, Idempotency idempotency,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call) {
        lifecycle.enter(command);
        try {
            RedisClusterAsyncCommands<String, byte[]> api = commands.get();
            for (int attempt = 0; ; attempt++) {
                RedkitException failure = null;
                RedisFuture<T> future = null;
                long sent = System.nanoTime();
                try {
                    future = dispatch(api, call, idempotency);
                } catch (RuntimeException e) {
                    failure = ExceptionTranslator.translate(command, e, profile.timeout());
                }
                if (future != null) {
                    try {
                        T reply = future.get(timeoutNanos, TimeUnit.NANOSECONDS);
                        latency(command).record(System.nanoTime() - sent, TimeUnit.NANOSECONDS);
                        return reply;
                    } catch (TimeoutException e) {
                        failure = timedOut(command, future);
                    } catch (ExecutionException e) {
                        failure = ExceptionTranslator.translate(command, e.getCause(), profile.timeout());
                    } catch (InterruptedException e) {
                        future.toCompletableFuture().completeExceptionally(e);
                        Thread.currentThread().interrupt();
                        throw new RedkitException(command + " interrupted while waiting for its reply;"
                                + " outcome UNKNOWN", Outcome.UNKNOWN, e);
                    }
                }
                if (!shouldRetry(failure, idempotency, attempt)) {
                    metrics.failure(profile.name(), failure);
                    throw failure;
                }
                metrics.retry(profile.name());
                pause(backoffNanos(attempt), failure);
            }
        } finally {
            lifecycle.exit();
        }
    }

    private <T> RedisFuture<T> dispatch(RedisClusterAsyncCommands<String, byte[]> api,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call, Idempotency idempotency) {
        RedisFuture<T> future = call.apply(api);
        if (idempotency == Idempotency.NON_IDEMPOTENT) {
            guard.track(future.toCompletableFuture());
        }
        return future;
    }

    private RedisTimeoutException timedOut(String command, RedisFuture<?> future) {
        RedisTimeoutException timeout = new RedisTimeoutException(command, profile.timeout(), null);
        // Completing Lettuce's command makes it drop the late reply instead of handing it to anyone.
        future.toCompletableFuture().completeExceptionally(timeout);
        onTimeout.run();
        return timeout;
    }

    private static void pause(long nanos, RedkitException failure) {
        if (nanos <= 0) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure;
        }
    }

    /** Runs {@code call} without blocking; the future fails with redkit's exceptions. */
    public <T> CompletableFuture<T> executeAsync(String command, Idempotency idempotency,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            lifecycle.enter(command);
        } catch (RedkitException e) {
            result.completeExceptionally(e);
            return result;
        }
        result.whenComplete((v, e) -> lifecycle.exit());
        RedisClusterAsyncCommands<String, byte[]> api;
        try {
            api = commands.get();
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return result;
        }
        attemptAsync(command, idempotency, api, call, 0, result);
        return result;
    }

    private <T> void attemptAsync(String command, Idempotency idempotency, RedisClusterAsyncCommands<String, byte[]> api,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call, int attempt,
            CompletableFuture<T> result) {
        RedisFuture<T> future;
        try {
            future = dispatch(api, call, idempotency);
        } catch (RuntimeException e) {
            failAsync(command, idempotency, api, call, attempt, result,
                    ExceptionTranslator.translate(command, e, profile.timeout()));
            return;
        }
        CompletableFuture<T> cf = future.toCompletableFuture();
        long sent = System.nanoTime();
        Timeout deadline = timer.newTimeout(t -> cf.completeExceptionally(
                new RedisTimeoutException(command, profile.timeout(), null)), timeoutNanos, TimeUnit.NANOSECONDS);
        cf.whenComplete((v, e) -> {
            deadline.cancel();
            if (e == null) {
                latency(command).record(System.nanoTime() - sent, TimeUnit.NANOSECONDS);
                result.complete(v);
                return;
            }
            RedkitException failure = ExceptionTranslator.translate(command, e, profile.timeout());
            if (failure instanceof RedisTimeoutException) {
                onTimeout.run();
            }
            failAsync(command, idempotency, api, call, attempt, result, failure);
        });
    }

    private <T> void failAsync(String command, Idempotency idempotency, RedisClusterAsyncCommands<String, byte[]> api,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call, int attempt,
            CompletableFuture<T> result, RedkitException failure) {
        if (!shouldRetry(failure, idempotency, attempt) || lifecycle.isClosed()) {
            metrics.failure(profile.name(), failure);
            result.completeExceptionally(failure);
            return;
        }
        metrics.retry(profile.name());
        long pause = backoffNanos(attempt);
        if (pause == 0) {
            attemptAsync(command, idempotency, api, call, attempt + 1, result);
        } else {
            timer.newTimeout(t -> attemptAsync(command, idempotency, api, call, attempt + 1, result), pause,
                    TimeUnit.NANOSECONDS);
        }
    }

    private Timer latency(String command) {
        Timer timer = latencies.get(command);
        return timer != null ? timer : latencies.computeIfAbsent(command, c -> metrics.latency(profile.name(), c));
    }

    private boolean shouldRetry(RedkitException failure, Idempotency idempotency, int attempt) {
        if (attempt >= profile.maxRetries() || !(failure instanceof RedisUnavailableException
                || failure instanceof RedisTimeoutException)) {
            return false;
        }
        if (failure.outcome() == Outcome.NOT_EXECUTED) {
            return true; // never sent: even INCR may go again
        }
        if (idempotency != Idempotency.IDEMPOTENT) {
            return false; // it may have run; running it again could apply it twice
        }
        return !(failure instanceof RedisTimeoutException) || profile.retryOnTimeout();
    }

    private long backoffNanos(int attempt) {
        long min = profile.backoffMin().toNanos();
        if (min == 0) {
            return 0;
        }
        long max = profile.backoffMax().toNanos();
        long exp = Math.min(max, min << Math.min(attempt, 20));
        // Equal jitter: half fixed, half random, so that many clients retrying together spread out.
        return exp / 2 + ThreadLocalRandom.current().nextLong(exp / 2 + 1);
    }
}
