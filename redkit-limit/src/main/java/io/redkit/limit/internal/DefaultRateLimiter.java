package io.redkit.limit.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.micrometer.common.KeyValue;
import io.redkit.ObservedOperation;
import io.redkit.PoolExhaustedException;
import io.redkit.RedisScript;
import io.redkit.RedisTimeoutException;
import io.redkit.RedisUnavailableException;
import io.redkit.RedkitException;
import io.redkit.limit.Decision;
import io.redkit.limit.LimitScripts;
import io.redkit.limit.LimiterConfig;
import io.redkit.limit.RateLimiter;
import io.redkit.limit.UnavailablePolicy;

/**
 * A limiter: checks its arguments, asks the breaker, runs its algorithm's script once, and turns the reply, or
 * an availability failure, into a {@link Decision}. The sync and async paths share {@link #counted} and
 * {@link #failed}, so they decide alike.
 */
final class DefaultRateLimiter implements RateLimiter {

    private static final KeyValue ALLOWED = ObservedOperation.outcome("allowed");
    private static final KeyValue DENIED = ObservedOperation.outcome("denied");
    private static final KeyValue FAIL_OPEN = ObservedOperation.outcome("fail_open");
    private static final KeyValue FAIL_CLOSED = ObservedOperation.outcome("fail_closed");

    private final LimiterConfig config;
    private final LimitRuntime runtime;
    private final LimitMetrics.Meters meters;
    private final RedisScript<List<Object>> script;
    private final ScriptArgs args;
    private final String[] suffixes;

    DefaultRateLimiter(LimiterConfig config, LimitRuntime runtime) {
        this.config = config;
        this.runtime = runtime;
        this.meters = runtime.metrics().forLimiter(config.name());
        this.script = LimitScripts.of(config.algorithm());
        this.args = new ScriptArgs(config);
        this.suffixes = config.limits().stream().map(ScriptArgs::keySuffix).toArray(String[]::new);
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public LimiterConfig config() {
        return config;
    }

    @Override
    public List<String> keys(String subject) {
        if (subject == null || subject.isBlank() || subject.length() > MAX_SUBJECT_LENGTH) {
            throw new IllegalArgumentException("subject must be 1-" + MAX_SUBJECT_LENGTH
                    + " characters, not blank, was " + (subject == null ? "null" : "'" + abbreviate(subject) + "'"));
        }
        // {name:subject} is the hash tag, so every limit's key lands in one slot and one script sees them all.
        String base = runtime.schema().key(config.name(), subject);
        String[] keys = new String[suffixes.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = runtime.schema().child(base, suffixes[i]);
        }
        return List.of(keys);
    }

    /**
     * Observed as {@code redkit.limit.decision}, outcome {@code allowed}, {@code denied}, {@code fail_open} or
     * {@code fail_closed} (decided by the policy, Redis having not); the subject is never a key value.
     */
    @Override
    public Decision tryAcquire(String subject, long permits) {
        ObservedOperation decisions = meters.decisions();
        return decisions.active() ? decisions.observe(o -> decide(subject, permits), DefaultRateLimiter::outcome)
                : decide(subject, permits);
    }

    @Override
    public CompletableFuture<Decision> tryAcquireAsync(String subject, long permits) {
        ObservedOperation decisions = meters.decisions();
        return decisions.active() ? decisions.observeAsync(o -> decideAsync(subject, permits),
                DefaultRateLimiter::outcome) : decideAsync(subject, permits);
    }

    private static KeyValue outcome(Decision decision) {
        return switch (decision.basis()) {
            case COUNTED -> decision.allowed() ? ALLOWED : DENIED;
            case FAIL_OPEN -> FAIL_OPEN;
            case FAIL_CLOSED -> FAIL_CLOSED;
        };
    }

    private Decision decide(String subject, long permits) {
        List<String> keys = keys(subject);
        byte[][] argv = args.forCall(checkPermits(permits));
        long start = runtime.clock().nanoTime();
        if (!runtime.breaker().tryAcquire()) {
            return byPolicy(start, null);
        }
        List<Object> reply;
        try {
            reply = runtime.ops().eval(script, keys, argv);
        } catch (RuntimeException e) {
            return failed(start, e, keys.get(0));
        }
        return counted(start, reply);
    }

    private CompletableFuture<Decision> decideAsync(String subject, long permits) {
        List<String> keys = keys(subject);
        byte[][] argv = args.forCall(checkPermits(permits));
        long start = runtime.clock().nanoTime();
        if (!runtime.breaker().tryAcquire()) {
            return CompletableFuture.completedFuture(byPolicy(start, null));
        }
        CompletableFuture<List<Object>> reply;
        try {
            reply = runtime.ops().evalAsync(script, keys, argv);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failed(start, e, keys.get(0)));
        }
        return reply.handle((r, e) -> e == null ? counted(start, r) : failed(start, unwrap(e), keys.get(0)));
    }

    private long checkPermits(long permits) {
        if (permits < 1 || permits > config.capacity()) {
            throw new IllegalArgumentException("permits must be 1-" + config.capacity() + " for limiter '"
                    + config.name() + "' (more could never pass " + config.limits() + "), was " + permits);
        }
        return permits;
    }

    private Decision counted(long start, List<Object> reply) {
        long nanos = runtime.clock().nanoTime() - start;
        runtime.breaker().succeeded(nanos);
        boolean allowed = ((Long) reply.get(0)) == 1L;
        int deciding = ((Long) reply.get(1)).intValue() - 1;
        long now = (Long) reply.get(5);
        Decision decision = new Decision(allowed, (Long) reply.get(2), micros((Long) reply.get(3)),
                micros((Long) reply.get(4)), config.limits().get(deciding),
                Instant.ofEpochSecond(now / 1_000_000, now % 1_000_000 * 1000), Decision.Basis.COUNTED);
        meters.decided(allowed, nanos);
        return decision;
    }

    /**
     * An availability failure is decided by the policy; any other failure (a script error, a bug) is the
     * caller's to see, and the breaker does not count it against Redis.
     */
    private Decision failed(long start, Throwable e, String key) {
        long nanos = runtime.clock().nanoTime() - start;
        if (e instanceof RedkitException) {
            runtime.breaker().failed(nanos, e, key);
        } else {
            runtime.breaker().released();
        }
        if (e instanceof RedisTimeoutException || e instanceof RedisUnavailableException
                || e instanceof PoolExhaustedException) {
            return byPolicy(start, e);
        }
        if (e instanceof RuntimeException re) {
            throw re;
        }
        throw new CompletionException(e);
    }

    /** The decision of the limiter's policy, Redis having not decided; the cause is null when the breaker was open. */
    private Decision byPolicy(long start, Throwable cause) {
        boolean open = config.whenUnavailable() == UnavailablePolicy.FAIL_OPEN;
        runtime.breaker().warnUnavailable(config.name(), config.whenUnavailable().name(), cause);
        Decision decision = new Decision(open, 0, Duration.ZERO, Duration.ZERO, config.limits().get(0),
                Instant.ofEpochMilli(runtime.clock().wallMillis()),
                open ? Decision.Basis.FAIL_OPEN : Decision.Basis.FAIL_CLOSED);
        meters.byPolicy(open);
        meters.decided(open, runtime.clock().nanoTime() - start);
        return decision;
    }

    private static Duration micros(long value) {
        return Duration.ofNanos(Math.max(0, value) * 1000);
    }

    private static Throwable unwrap(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    private static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }

    @Override
    public String toString() {
        return "RateLimiter[" + config + "]";
    }
}
