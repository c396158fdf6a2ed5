package io.redkit.spring;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.redkit.limit.Algorithm;
import io.redkit.limit.Limit;
import io.redkit.limit.LimiterConfig;
import io.redkit.limit.Limits;
import io.redkit.limit.RateLimiter;
import io.redkit.limit.UnavailablePolicy;

/**
 * The limiters of {@code redkit.limit.limiters.*}, built at start-up (a bad or incomplete one fails the start) and
 * served by name: {@code limiters.get("api").tryAcquire(userId)}. Limiters built in code come from the
 * {@link Limits} bean itself and share its breaker.
 */
public final class RedkitLimiters {

    private final Map<String, RateLimiter> limiters;

    /** Builds each configured limiter with {@code limits}. */
    public RedkitLimiters(Limits limits, RedkitLimitProperties properties) {
        Map<String, RateLimiter> built = new LinkedHashMap<>();
        properties.getLimiters().forEach((name, spec) -> built.put(name, limits.limiter(config(name, spec))));
        this.limiters = Map.copyOf(built);
    }

    /**
     * The limiter of that name.
     *
     * @throws IllegalArgumentException when no limiter of that name is configured
     */
    public RateLimiter get(String name) {
        RateLimiter limiter = limiters.get(Objects.requireNonNull(name, "name"));
        if (limiter == null) {
            throw new IllegalArgumentException("no limiter '" + name + "' in redkit.limit.limiters (configured: "
                    + limiters.keySet() + ")");
        }
        return limiter;
    }

    private static LimiterConfig config(String name, RedkitLimitProperties.Limiter spec) {
        String prefix = "redkit.limit.limiters." + name;
        try {
            if (spec.getWhenUnavailable() == null) {
                throw new IllegalArgumentException("when-unavailable is required: FAIL_OPEN or FAIL_CLOSED (whether"
                        + " an outage of Redis lets traffic through is the service's decision)");
            }
            Algorithm algorithm = named(Algorithm.class, "algorithm", spec.getAlgorithm());
            LimiterConfig.Builder b = LimiterConfig.builder(name).whenUnavailable(named(UnavailablePolicy.class,
                    "when-unavailable", spec.getWhenUnavailable()));
            for (RedkitLimitProperties.Rate rate : spec.getLimits()) {
                b.limit(limit(algorithm, rate));
            }
            return b.build();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(prefix + ": " + e.getMessage(), e);
        }
    }

    private static <E extends Enum<E>> E named(Class<E> type, String field, String value) {
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + " must be one of " + Arrays.toString(type.getEnumConstants())
                    + ", was '" + value + "'", e);
        }
    }

    private static Limit limit(Algorithm algorithm, RedkitLimitProperties.Rate rate) {
        if (rate.getBurst() != null && algorithm != Algorithm.GCRA) {
            throw new IllegalArgumentException("burst is for GCRA only, the algorithm is " + algorithm);
        }
        return switch (algorithm) {
            case GCRA -> rate.getBurst() == null ? Limit.gcra(rate.getPermits(), rate.getPeriod())
                    : Limit.gcra(rate.getPermits(), rate.getPeriod(), rate.getBurst());
            case FIXED_WINDOW -> Limit.fixedWindow(rate.getPermits(), rate.getPeriod());
            case SLIDING_LOG -> Limit.slidingLog(rate.getPermits(), rate.getPeriod());
            case SLIDING_COUNTER -> Limit.slidingCounter(rate.getPermits(), rate.getPeriod());
        };
    }
}
