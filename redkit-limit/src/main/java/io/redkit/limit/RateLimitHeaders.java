package io.redkit.limit;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HTTP response headers of a {@link Decision}, as name → value, for any server API (no servlet dependency):
 * {@code Retry-After} (RFC 9110, whole seconds) when refused, and the {@code RateLimit-Limit},
 * {@code RateLimit-Remaining}, {@code RateLimit-Reset} and {@code RateLimit-Policy} fields of the IETF draft
 * (draft-ietf-httpapi-ratelimit-headers, the separate-field form of its revisions up to 05, which most gateways
 * and clients read). Seconds are rounded up, so a client that waits what it is told is never early.
 */
public final class RateLimitHeaders {

    /** {@code Retry-After}: seconds until the refused call would pass. */
    public static final String RETRY_AFTER = "Retry-After";
    /** {@code RateLimit-Limit}: the deciding limit's capacity. */
    public static final String LIMIT = "RateLimit-Limit";
    /** {@code RateLimit-Remaining}: permits left in the deciding limit. */
    public static final String REMAINING = "RateLimit-Remaining";
    /**
     * {@code RateLimit-Reset}: seconds until the deciding limit lets the next request through: the same as
     * {@code Retry-After} on a refusal, 0 while permits are left, else until a permit comes back. (Not "until full
     * capacity": next to {@code Retry-After: 1} on a GCRA refusal that said 10, and the two contradicted each
     * other.)
     */
    public static final String RESET = "RateLimit-Reset";
    /** {@code RateLimit-Policy}: {@code <permits>;w=<seconds>} (and {@code ;burst=<n>} for a GCRA burst). */
    public static final String POLICY = "RateLimit-Policy";

    private RateLimitHeaders() {
    }

    /**
     * The headers for {@code decision}. A decision the limiter's policy made without Redis has none: nothing was
     * counted, so there is no limit state to report (answer a fail-closed refusal with 503, not 429).
     * {@code RateLimit-Policy} is left out when the period is not a whole number of seconds.
     */
    public static Map<String, String> of(Decision decision) {
        if (!decision.counted()) {
            return Map.of();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        String retryAfter = Long.toString(Math.max(1, seconds(decision.retryAfter())));
        if (!decision.allowed()) {
            headers.put(RETRY_AFTER, retryAfter);
        }
        Limit limit = decision.limit();
        headers.put(LIMIT, Long.toString(limit.capacity()));
        headers.put(REMAINING, Long.toString(decision.remaining()));
        headers.put(RESET, decision.allowed() ? Long.toString(seconds(nextPermitAfter(decision))) : retryAfter);
        if (limit.period().toNanos() % 1_000_000_000L == 0) {
            headers.put(POLICY, limit.permits() + ";w=" + limit.period().toSeconds()
                    + (limit.capacity() != limit.permits() ? ";burst=" + limit.capacity() : ""));
        }
        return Collections.unmodifiableMap(headers);
    }

    /**
     * After an allowed decision, how long until one more permit is there: none while some are left. Exact for GCRA
     * (a permit is back when the theoretical arrival time is within the burst tolerance again: the time to full
     * capacity less capacity − 1 emission intervals) and for a fixed window (its end); for the sliding algorithms,
     * the time to full capacity, an upper bound: a client that waits it is never early.
     */
    static Duration nextPermitAfter(Decision decision) {
        if (decision.remaining() > 0) {
            return Duration.ZERO;
        }
        Limit limit = decision.limit();
        if (limit.algorithm() == Algorithm.GCRA) {
            Duration interval = limit.period().dividedBy(limit.permits());
            Duration next = decision.resetAfter().minus(interval.multipliedBy(limit.capacity() - 1));
            return next.isNegative() ? Duration.ZERO : next;
        }
        return decision.resetAfter();
    }

    /** Whole seconds, rounded up. */
    static long seconds(Duration d) {
        long s = d.getSeconds();
        return d.getNano() > 0 ? s + 1 : s;
    }
}
