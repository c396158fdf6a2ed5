package io.redkit.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.micrometer.core.instrument.Timer;
import io.netty.util.Timeout;

import io.redkit.CommandProfile;
import io.redkit.Idempotency;
import io.redkit.Outcome;
import io.redkit.RedisCommandException;
import io.redkit.RedisTimeoutException;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitException;

/**
 * Runs one command under a {@link CommandProfile}: applies the timeout (Lettuce's own command timeout is off, so
 * that a blocking read on a dedicated connection can wait longer than a GET), retries what is safe to retry,
 * translates errors and counts failures. Sync callers wait on the future directly, so the hot path schedules no
 * timer; async callers get one on the client's wheel timer.
 *
 * <p>A failure reports the worst outcome of all its attempts: a retry that was rejected unsent (NOT_EXECUTED)
 * after an attempt that may have run (UNKNOWN) is still UNKNOWN, because the first copy may have run.
 */
public final class CommandExecutor {

    private final Supplier<RedisClusterAsyncCommands<String, byte[]>> commands;
    private final CommandProfile profile;
    private final RedkitMetrics metrics;
    private final io.netty.util.Timer timer;
    private final Lifecycle lifecycle;
    private final Runnable onTimeout;
    private final long timeoutNanos;
    private final Map<String, Timer> latencies = new ConcurrentHashMap<>();

    /** Creates an executor; {@code onTimeout} runs after every timeout (a dedicated connection marks itself bad). */
    public CommandExecutor(Supplier<RedisClusterAsyncCommands<String, byte[]>> commands, CommandProfile profile,
            RedkitMetrics metrics, io.netty.util.Timer timer, Lifecycle lifecycle, Runnable onTimeout) {
        this.commands = commands;
        this.profile = profile;
        this.metrics = metrics;
        this.timer = timer;
        this.lifecycle = lifecycle;
        this.onTimeout = onTimeout;
        this.timeoutNanos = profile.timeout().toNanos();
    }

    /** The same executor under another profile. */
    public CommandExecutor withProfile(CommandProfile other) {
        return new CommandExecutor(commands, other, metrics, timer, lifecycle, onTimeout);
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
        return execute(commands.get(), command, idempotency, call);
    }

    /**
     * Runs {@code call} on each master and waits for every reply, keyed by the master's {@code host:port}: each
     * master of a Cluster in turn, the one server elsewhere.
     */
    public <T> Map<String, T> executeOnMasters(String command, Idempotency idempotency,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call) {
        RedisClusterAsyncCommands<String, byte[]> api = commands.get();
        Map<String, T> replies = new LinkedHashMap<>();
        if (api instanceof RedisAdvancedClusterAsyncCommands<String, byte[]> cluster) {
            for (RedisClusterNode node : cluster.getStatefulConnection().getPartitions()) {
                if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.is(RedisClusterNode.NodeFlag.FAIL)) {
                    RedisClusterAsyncCommands<String, byte[]> one;
                    try {
                        one = cluster.getConnection(node.getNodeId());
                    } catch (RedisException e) {
                        throw new RedisUnavailableException(command + " not sent to " + node.getUri() + ": "
                                + e.getMessage() + " (not executed)", Outcome.NOT_EXECUTED, e);
                    }
                    replies.put(node.getUri().getHost() + ":" + node.getUri().getPort(),
                            execute(one, command, idempotency, call));
                }
            }
            return replies;
        }
        replies.put("master", execute(api, command, idempotency, call));
        return replies;
    }

    private <T> T execute(RedisClusterAsyncCommands<String, byte[]> api, String command, Idempotency idempotency,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call) {
        lifecycle.enter(command);
        try {
            RedkitException worst = null;
            for (int attempt = 0; ; attempt++) {
                RedkitException failure;
                try {
                    return await(command, dispatch(command, api, call));
                } catch (RedkitException e) {
                    failure = e;
                }
                worst = worse(worst, failure);
                if (!shouldRetry(worst, idempotency, attempt)) {
                    failed(command, worst);
                    throw worst;
                }
                metrics.retry(profile.name());
                pause(backoffNanos(attempt), worst);
            }
        } finally {
            lifecycle.exit();
        }
    }

    private <T> T await(String command, RedisFuture<T> future) {
        long sent = System.nanoTime();
        try {
            T reply = future.get(timeoutNanos, TimeUnit.NANOSECONDS);
            latency(command).record(System.nanoTime() - sent, TimeUnit.NANOSECONDS);
            return reply;
        } catch (TimeoutException e) {
            throw timedOut(command, future);
        } catch (ExecutionException e) {
            throw ExceptionTranslator.translate(command, e.getCause(), profile.timeout());
        } catch (InterruptedException e) {
            future.toCompletableFuture().completeExceptionally(e);
            Thread.currentThread().interrupt();
            throw new RedkitException(command + " interrupted while waiting for its reply; outcome UNKNOWN",
                    Outcome.UNKNOWN, e);
        }
    }

    /**
     * Issues the command. Whatever {@code call} throws was thrown before anything reached the wire: Lettuce's own
     * exceptions become NOT_EXECUTED failures, anything else (a bug in the caller's lambda, a bad argument) is
     * rethrown as it is.
     */
    private <T> RedisFuture<T> dispatch(String command, RedisClusterAsyncCommands<String, byte[]> api,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call) {
        RedisFuture<T> future;
        try {
            future = call.apply(api);
        } catch (RedisException e) {
            throw new RedisUnavailableException(command + " not sent: " + e.getMessage() + " (not executed)",
                    Outcome.NOT_EXECUTED, e);
        }
        if (future == null) {
            throw new IllegalStateException("the call for " + command + " returned no future: it must issue"
                    + " exactly one command and return Lettuce's future for it");
        }
        return future;
    }

    /** The failure to report after both: the one whose command may have run, else the later one. */
    private static RedkitException worse(RedkitException before, RedkitException now) {
        if (before == null) {
            return now;
        }
        if (severity(before.outcome()) > severity(now.outcome())) {
            before.addSuppressed(now);
            return before;
        }
        now.addSuppressed(before);
        return now;
    }

    private static int severity(Outcome outcome) {
        return switch (outcome) {
            case NOT_EXECUTED -> 0;
            case FAILED -> 1;
            case UNKNOWN -> 2;
        };
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
        attemptAsync(new AsyncCall<>(command, idempotency, api, call, result), 0, null);
        return result;
    }

    /** One asynchronous command and its retries. */
    private record AsyncCall<T>(String command, Idempotency idempotency, RedisClusterAsyncCommands<String, byte[]> api,
            Function<RedisClusterAsyncCommands<String, byte[]>, RedisFuture<T>> call, CompletableFuture<T> result) {
    }

    private <T> void attemptAsync(AsyncCall<T> c, int attempt, RedkitException worst) {
        RedisFuture<T> future;
        try {
            future = dispatch(c.command(), c.api(), c.call());
        } catch (RedkitException e) {
            failAsync(c, attempt, worse(worst, e));
            return;
        } catch (RuntimeException e) {
            c.result().completeExceptionally(e);
            return;
        }
        CompletableFuture<T> cf = future.toCompletableFuture();
        long sent = System.nanoTime();
        Timeout deadline = timer.newTimeout(t -> cf.completeExceptionally(
                new RedisTimeoutException(c.command(), profile.timeout(), null)), timeoutNanos, TimeUnit.NANOSECONDS);
        cf.whenComplete((v, e) -> {
            deadline.cancel();
            if (e == null) {
                latency(c.command()).record(System.nanoTime() - sent, TimeUnit.NANOSECONDS);
                c.result().complete(v);
                return;
            }
            RedkitException failure = ExceptionTranslator.translate(c.command(), e, profile.timeout());
            if (failure instanceof RedisTimeoutException) {
                onTimeout.run();
            }
            failAsync(c, attempt, worse(worst, failure));
        });
    }

    private <T> void failAsync(AsyncCall<T> c, int attempt, RedkitException worst) {
        if (!shouldRetry(worst, c.idempotency(), attempt) || lifecycle.isClosed()) {
            failed(c.command(), worst);
            c.result().completeExceptionally(worst);
            return;
        }
        metrics.retry(profile.name());
        long pause = backoffNanos(attempt);
        if (pause == 0) {
            attemptAsync(c, attempt + 1, worst);
        } else {
            timer.newTimeout(t -> attemptAsync(c, attempt + 1, worst), pause, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Counts a failed call, except NOSCRIPT to redkit's own EVALSHA: {@code DefaultRedisOps} sends the script again
     * with EVAL and counts {@code redkit.script.reloads}; as a failure, each restart or failover would look like an
     * outage.
     */
    private void failed(String command, RedkitException failure) {
        if (!(command.startsWith("EVALSHA ") && failure instanceof RedisCommandException e
                && "NOSCRIPT".equals(e.errorCode()))) {
            metrics.failure(profile.name(), failure);
        }
    }

    private Timer latency(String command) {
        Timer timer = latencies.get(command);
        return timer != null ? timer : latencies.computeIfAbsent(command, c -> metrics.latency(profile.name(), c));
    }

    /**
     * Whether to send again after {@code failure}, the worst failure so far: what was never sent may always go
     * again; what may have run only when it is idempotent (and, after a timeout, when the profile says so).
     */
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
