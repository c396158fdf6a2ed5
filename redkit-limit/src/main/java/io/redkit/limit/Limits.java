package io.redkit.limit;

import java.util.Objects;

import io.redkit.Redkit;
import io.redkit.limit.internal.DefaultLimits;

/**
 * Rate limiters on Redis, each decision one script on the server's clock. One per process and configuration:
 * its limiters share one breaker in front of Redis, so that while Redis keeps failing no decision waits for it.
 *
 * <pre>{@code
 * Limits limits = Limits.create(redkit, LimitsConfig.defaults());
 * RateLimiter api = limits.limiter(LimiterConfig.builder("api")
 *         .limits(Limit.gcra(10, Duration.ofSeconds(1)), Limit.gcra(1000, Duration.ofHours(1)))
 *         .failOpen()
 *         .build());
 * Decision d = api.tryAcquire(userId);
 * }</pre>
 */
public interface Limits {

    /** Builds the limits of {@code redkit} with {@code config}. */
    static Limits create(Redkit redkit, LimitsConfig config) {
        return new DefaultLimits(Objects.requireNonNull(redkit, "redkit"), Objects.requireNonNull(config, "config"));
    }

    /**
     * The limiter of {@code config}: the same instance for the same configuration; a second, different
     * configuration under a name already taken is refused, as the two would share keys.
     *
     * @throws IllegalArgumentException when the name is taken by another configuration
     */
    RateLimiter limiter(LimiterConfig config);

    /** The configuration. */
    LimitsConfig config();

    /** Whether the breaker is letting decisions through to Redis (closed), rather than deciding by policy. */
    boolean healthy();
}
