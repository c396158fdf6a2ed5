package io.redkit;

import java.time.Duration;
import java.util.Objects;

/**
 * How long one command may take and how it is retried. Two profiles exist: {@link #REQUEST} for work a user waits
 * on, {@link #BACKGROUND} for jobs that would rather wait than fail. Only idempotent commands are ever retried.
 *
 * @param name a label for metrics and messages
 * @param timeout how long one attempt may wait for its reply
 * @param maxRetries how many times an idempotent command is sent again after a retryable failure
 * @param backoffMin the first pause before a retry (doubled each time, with jitter)
 * @param backoffMax the longest pause before a retry
 * @param retryOnTimeout whether a timed-out idempotent command is retried; the request profile does not, because a
 *     server that did not answer in time rarely answers the second attempt sooner, and the caller's budget is spent
 */
public record CommandProfile(String name, Duration timeout, int maxRetries, Duration backoffMin, Duration backoffMax,
        boolean retryOnTimeout) {

    /** Lettuce waits 60 s by default; a request path that waits that long holds every thread of the service. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMillis(300);
    /** Background work (watchdogs, stream workers) may wait longer than a request. */
    public static final Duration DEFAULT_BACKGROUND_TIMEOUT = Duration.ofSeconds(1);
    /**
     * The longest per-attempt timeout or backoff accepted. Longer is a mistake (a lost reply would hold a thread
     * for that long), and a bound keeps every deadline computation in nanoseconds far from overflow.
     */
    public static final Duration MAX_DURATION = Duration.ofHours(24);

    /** The request path: 300 ms, at most one retry, and only on a connection failure. */
    public static final CommandProfile REQUEST =
            new CommandProfile("request", DEFAULT_REQUEST_TIMEOUT, 1, Duration.ZERO, Duration.ZERO, false);

    /** Background jobs: 1 s, 3 retries with 8–512 ms backoff, also after a timeout. */
    public static final CommandProfile BACKGROUND = new CommandProfile("background", DEFAULT_BACKGROUND_TIMEOUT, 3,
            Duration.ofMillis(8), Duration.ofMillis(512), true);

    /** Validates every field and names the bad one. */
    public CommandProfile {
        Objects.requireNonNull(name, "name");
        requirePositive("timeout", timeout);
        requireAtMost("timeout", timeout, MAX_DURATION);
        requireAtMost("backoffMax", backoffMax, MAX_DURATION);
        if (maxRetries < 0 || maxRetries > 10) {
            throw new IllegalArgumentException("maxRetries must be 0-10, was " + maxRetries);
        }
        requireNonNegative("backoffMin", backoffMin);
        requireNonNegative("backoffMax", backoffMax);
        if (backoffMax.compareTo(backoffMin) < 0) {
            throw new IllegalArgumentException(
                    "backoffMax (" + backoffMax + ") must not be below backoffMin (" + backoffMin + ")");
        }
    }

    /** This profile with another per-attempt timeout. */
    public CommandProfile withTimeout(Duration newTimeout) {
        return new CommandProfile(name, newTimeout, maxRetries, backoffMin, backoffMax, retryOnTimeout);
    }

    /** This profile with another number of retries. */
    public CommandProfile withMaxRetries(int retries) {
        return new CommandProfile(name, timeout, retries, backoffMin, backoffMax, retryOnTimeout);
    }

    static void requirePositive(String field, Duration value) {
        Objects.requireNonNull(value, field);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
    }

    static void requireAtMost(String field, Duration value, Duration max) {
        Objects.requireNonNull(value, field);
        if (value.compareTo(max) > 0) {
            throw new IllegalArgumentException(field + " must be at most " + max + ", was " + value);
        }
    }

    static void requireNonNegative(String field, Duration value) {
        Objects.requireNonNull(value, field);
        if (value.isNegative()) {
            throw new IllegalArgumentException(field + " must not be negative, was " + value);
        }
    }
}
