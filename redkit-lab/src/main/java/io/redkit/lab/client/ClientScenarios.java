package io.redkit.lab.client;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Supplier;

import io.redkit.DedicatedConnection;
import io.redkit.DedicatedPoolConfig;
import io.redkit.Idempotency;
import io.redkit.KeySchema;
import io.redkit.RedisScript;
import io.redkit.Redkit;
import io.redkit.RedkitConfig;
import io.redkit.RedkitException;
import io.redkit.RedisUnavailableException;
import io.redkit.ScriptResult;
import io.redkit.lab.Target;

/**
 * The seeds' checks of a client, run against a real server: what a miss, a timeout, a dead server, a full pool,
 * a flushed script cache and a timed-out INCR look like to the caller.
 */
public final class ClientScenarios {

    static final Duration TIMEOUT = Duration.ofMillis(300);
    static final int POOL_SIZE = 4;
    static final Duration POOL_WAIT = Duration.ofMillis(200);

    private final Target target;
    private final KeySchema keys = KeySchema.of("lab.client");
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    /** Scenarios against {@code target}. */
    public ClientScenarios(Target target) {
        this.target = target;
    }

    /** Runs every scenario in turn. */
    public ClientReport runAll() {
        // First, in a JVM of its own, while the server has done nothing else yet.
        ClientReport.FirstConnect first = FirstConnectRun.run(target.url());
        ClientReport.FirstConnect withAppCds = FirstConnectRun.runWithAppCds(target.url(),
                System.getProperty("java.class.path"));
        try (Redkit redkit = Redkit.create(RedkitConfig.builder().url(target.url()).name("lab-client")
                .commandTimeout(TIMEOUT).dedicatedPool(new DedicatedPoolConfig(POOL_SIZE, POOL_SIZE, POOL_WAIT))
                .build())) {
            return new ClientReport(target.describe(), miss(redkit), timeout(redkit), disconnected(redkit),
                    pool(redkit), noscript(redkit), retry(redkit), first, withAppCds);
        }
    }

    private ClientReport.Miss miss(Redkit redkit) {
        try {
            return new ClientReport.Miss(redkit.commands().get(keys.key("absent", run)).isEmpty() ? "empty"
                    : "value");
        } catch (RedkitException e) {
            return new ClientReport.Miss("exception:" + e.getClass().getSimpleName());
        }
    }

    private ClientReport.Timeout timeout(Redkit redkit) {
        String key = keys.key("paused", run);
        redkit.commands().setString(key, "v", Duration.ofMinutes(5));
        target.pause(Duration.ofSeconds(1));
        try {
            Timed<RedkitException> t = timed(() -> failure(() -> redkit.commands().get(key)));
            return new ClientReport.Timeout(TIMEOUT.toMillis(), t.millis(), outcome(t.value()), name(t.value()));
        } finally {
            target.resume();
        }
    }

    private ClientReport.Disconnected disconnected(Redkit redkit) {
        if (!target.canKill()) {
            return new ClientReport.Disconnected(null, null, "an external server cannot be killed; run without"
                    + " --redis to measure this");
        }
        String key = keys.key("down", run);
        target.kill();
        try {
            // The client learns of the closed socket asynchronously; wait for the first refusal, then time one.
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!(failure(() -> redkit.commands().get(key)) instanceof RedisUnavailableException)
                    && System.nanoTime() < deadline) {
                sleep(10);
            }
            Timed<RedkitException> t = timed(() -> failure(() -> redkit.commands().get(key)));
            return new ClientReport.Disconnected(t.millis(), name(t.value()), null);
        } finally {
            target.restart();
            awaitPing(redkit);
        }
    }

    private ClientReport.Pool pool(Redkit redkit) {
        DedicatedConnection[] held = new DedicatedConnection[POOL_SIZE];
        try {
            for (int i = 0; i < POOL_SIZE; i++) {
                held[i] = redkit.dedicated();
            }
            Timed<RedkitException> t = timed(() -> failure(() -> redkit.dedicated().close()));
            return new ClientReport.Pool(POOL_SIZE, POOL_WAIT.toMillis(), t.millis(), name(t.value()));
        } finally {
            for (DedicatedConnection c : held) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    private ClientReport.Noscript noscript(Redkit redkit) {
        RedisScript<Long> add = RedisScript.of("lab-add", "return redis.call('INCRBY', KEYS[1], ARGV[1])",
                ScriptResult.INTEGER, Idempotency.NON_IDEMPOTENT);
        String key = keys.key("script", run);
        redkit.commands().eval(add, List.of(key), "1");
        target.scriptFlush();
        long result = redkit.commands().eval(add, List.of(key), "1");
        redkit.commands().delete(key);
        return new ClientReport.Noscript(result == 2, result, 2);
    }

    private ClientReport.Retry retry(Redkit redkit) {
        String key = keys.key("counter", run);
        redkit.commands().setString(key, "0", Duration.ofMinutes(5));
        target.pause(Duration.ofSeconds(1));
        RedkitException e;
        try {
            e = failure(() -> redkit.commands().incr(key));
        } finally {
            target.resume();
        }
        awaitPing(redkit);
        long value = Long.parseLong(redkit.commands().getString(key).orElse("-1"));
        redkit.commands().delete(key);
        return new ClientReport.Retry(value, 1, name(e));
    }

    private static void awaitPing(Redkit redkit) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (failure(redkit.commands()::ping) == null) {
                return;
            }
            sleep(20);
        }
        throw new IllegalStateException("redis did not answer PING within 10 s after the fault was healed");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static RedkitException failure(Runnable call) {
        try {
            call.run();
            return null;
        } catch (RedkitException e) {
            return e;
        }
    }

    private static String outcome(RedkitException e) {
        return e == null ? "succeeded" : e.outcome().name().toLowerCase(Locale.ROOT);
    }

    private static String name(RedkitException e) {
        return e == null ? null : e.getClass().getSimpleName();
    }

    private record Timed<T>(T value, long millis) { }

    private static <T> Timed<T> timed(Supplier<T> work) {
        long start = System.nanoTime();
        T value = work.get();
        return new Timed<>(value, Duration.ofNanos(System.nanoTime() - start).toMillis());
    }
}
