package io.redkit.limit.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.redkit.KeySchema;
import io.redkit.RedisBreaker;
import io.redkit.RedisOps;
import io.redkit.Redkit;
import io.redkit.limit.LimiterConfig;
import io.redkit.limit.Limits;
import io.redkit.limit.LimitScripts;
import io.redkit.limit.LimitsConfig;
import io.redkit.limit.RateLimiter;

/**
 * The limiters of one {@link Redkit}: they share the request profile (with the configured timeout), one key
 * schema and one breaker. No threads of its own, so nothing to close.
 */
public final class DefaultLimits implements Limits {

    private final LimitsConfig config;
    private final LimitRuntime runtime;
    private final Map<String, RateLimiter> limiters = new ConcurrentHashMap<>();

    /** Builds the limits; use {@link Limits#create}. */
    public DefaultLimits(Redkit redkit, LimitsConfig config) {
        this.config = config;
        redkit.scripts().register(LimitScripts.ALL);
        // Always the master: Redkit.commands() reads and writes it, and LimitsConfig refuses replica reads.
        RedisOps ops = config.timeout().map(redkit.commands()::withTimeout).orElse(redkit.commands());
        LimitMetrics metrics = new LimitMetrics(redkit, config.namespace());
        LimitBreaker breaker = new LimitBreaker(config.namespace(), RedisBreaker.create(redkit,
                "limits " + config.namespace(), config.breakerWindow(), config.breakerProbeInterval(),
                config.breakerProbesToClose(), ops), redkit.clock(), metrics);
        this.runtime = new LimitRuntime(ops, KeySchema.of(config.namespace()), breaker, redkit.clock(), metrics);
    }

    @Override
    public RateLimiter limiter(LimiterConfig limiter) {
        RateLimiter made = limiters.computeIfAbsent(limiter.name(), n -> new DefaultRateLimiter(limiter, runtime));
        if (!made.config().equals(limiter)) {
            throw new IllegalArgumentException("limiter '" + limiter.name() + "' already exists as " + made.config()
                    + "; a second configuration under the same name would share its keys: " + limiter);
        }
        return made;
    }

    @Override
    public LimitsConfig config() {
        return config;
    }

    @Override
    public boolean healthy() {
        return runtime.breaker().closed();
    }

    @Override
    public String toString() {
        return "Limits[" + config + "]";
    }
}
