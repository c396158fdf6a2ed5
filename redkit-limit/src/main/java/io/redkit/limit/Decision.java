package io.redkit.limit;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a limiter decided for one call: a value, never an exception, whether the answer is yes, no, or "Redis
 * could not say, and the limiter's policy answered". Carries what HTTP's {@code Retry-After} and
 * {@code RateLimit-*} headers need ({@link RateLimitHeaders}).
 *
 * @param allowed whether the caller may go ahead
 * @param remaining permits left in the deciding limit after this call (0 when not {@link #counted()})
 * @param retryAfter when refused, how long until the same call would pass if nothing else took permits
 *     meanwhile (zero when allowed, or when not counted)
 * @param resetAfter how long until the deciding limit is back to full capacity (zero when not counted)
 * @param limit the limit that decided: when refused, the refusing limit that makes the caller wait longest;
 *     when allowed, the one with the fewest permits left; when not counted, the limiter's first limit
 * @param decidedAt when it was decided, on the Redis server's clock; on the client's when not counted
 * @param basis what the decision rests on
 */
public record Decision(boolean allowed, long remaining, Duration retryAfter, Duration resetAfter, Limit limit,
        Instant decidedAt, Basis basis) {

    /** What a decision rests on. */
    public enum Basis {
        /** The limiter's script counted the call on the server: every field is the server's answer. */
        COUNTED,
        /** Redis could not decide (timeout, unreachable, breaker open); allowed by {@link UnavailablePolicy#FAIL_OPEN}. */
        FAIL_OPEN,
        /** Redis could not decide (timeout, unreachable, breaker open); refused by {@link UnavailablePolicy#FAIL_CLOSED}. */
        FAIL_CLOSED
    }

    /** Checks every field. */
    public Decision {
        Objects.requireNonNull(retryAfter, "retryAfter");
        Objects.requireNonNull(resetAfter, "resetAfter");
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(decidedAt, "decidedAt");
        Objects.requireNonNull(basis, "basis");
        if (remaining < 0 || retryAfter.isNegative() || resetAfter.isNegative()) {
            throw new IllegalArgumentException("remaining, retryAfter and resetAfter must not be negative, were "
                    + remaining + ", " + retryAfter + ", " + resetAfter);
        }
        if (allowed && basis == Basis.FAIL_CLOSED || !allowed && basis == Basis.FAIL_OPEN) {
            throw new IllegalArgumentException("allowed=" + allowed + " contradicts basis " + basis);
        }
    }

    /** Whether Redis counted this call; false when the limiter's {@link UnavailablePolicy} decided it. */
    public boolean counted() {
        return basis == Basis.COUNTED;
    }
}
