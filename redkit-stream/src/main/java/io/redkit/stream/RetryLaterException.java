package io.redkit.stream;

import java.time.Duration;
import java.util.Objects;

/**
 * Thrown by a {@link MessageHandler} for a message it cannot handle yet through no fault of the message: another
 * delivery of the same key is running it ({@link OnceResult.InProgress}), a resource it needs is locked. The
 * message is handed out again after {@link #retryAfter()} (at least the retry backoff's minimum, at most half the
 * visibility timeout) and the postponed delivery is not counted against {@link StreamConfig#maxDeliveries()}: a
 * message told to wait never reaches the dead-letter stream for waiting.
 */
public final class RetryLaterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Duration retryAfter;

    /** Creates the exception: hand the message out again after {@code retryAfter}. */
    public RetryLaterException(Duration retryAfter, String why) {
        super(why, null, false, false);
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative, was " + retryAfter);
        }
    }

    /** When to hand the message out again. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
