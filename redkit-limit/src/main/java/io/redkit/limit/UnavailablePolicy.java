package io.redkit.limit;

/**
 * What a limiter decides when Redis cannot: it timed out, is unreachable, or the limiter's breaker is open after
 * a run of such failures. Chosen per limiter, in code, with no default ({@link LimiterConfig.Builder#build()}
 * refuses a limiter without one): whether an outage lets traffic through or turns it away is the service's
 * decision, not the library's.
 */
public enum UnavailablePolicy {

    /**
     * Allow the request without counting it: a {@link Decision} with {@code allowed = true} and basis
     * {@link Decision.Basis#FAIL_OPEN}, counted in {@code redkit.limit.unavailable{policy=fail_open}}. For limits
     * that protect fairness or cost, where an outage of Redis must not become an outage of the service.
     */
    FAIL_OPEN,

    /**
     * Refuse the request: a {@link Decision} with {@code allowed = false} and basis
     * {@link Decision.Basis#FAIL_CLOSED}, counted in {@code redkit.limit.unavailable{policy=fail_closed}}. For limits
     * that protect something that must not be overrun (login attempts, a paid upstream's hard quota); answer it
     * with 503 rather than 429, as nothing was counted.
     */
    FAIL_CLOSED
}
