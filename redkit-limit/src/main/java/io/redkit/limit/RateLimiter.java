package io.redkit.limit;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Decides whether a subject (a user id, an API key, an IP address) may go ahead, against every limit of the
 * limiter at once: one script, one round trip, on the Redis server's clock. Thread-safe. When Redis cannot decide
 * within the timeout, or the breaker is open, the limiter's {@link UnavailablePolicy} decides at once.
 *
 * <p>A subject may be any non-blank string up to {@link #MAX_SUBJECT_LENGTH} characters; it is escaped into the
 * key ({@code limit:{api:user%3A42}:gcra.1000}), so that no subject can pose as another or move the key to
 * another slot.
 */
public interface RateLimiter {

    /** The longest subject accepted. */
    int MAX_SUBJECT_LENGTH = 512;

    /** The limiter's name. */
    String name();

    /** The limiter's configuration. */
    LimiterConfig config();

    /** {@link #tryAcquire(String, long)} of one permit. */
    default Decision tryAcquire(String subject) {
        return tryAcquire(subject, 1);
    }

    /**
     * Takes {@code permits} from every limit of {@code subject} if each has them, else none from any.
     *
     * @throws IllegalArgumentException before anything is sent, when the subject is null, blank or too long, or
     *     {@code permits} is below 1 or above {@link LimiterConfig#capacity()} (such a call could never pass)
     * @throws io.redkit.RedisCommandException when the server refuses the script (a key holding something else:
     *     {@code WRONGTYPE}, {@code CORRUPTLIMIT}); nothing was counted
     */
    Decision tryAcquire(String subject, long permits);

    /** {@link #tryAcquire(String, long)} without blocking; the argument checks still throw at once. */
    CompletableFuture<Decision> tryAcquireAsync(String subject, long permits);

    /** The keys that hold {@code subject}'s state, one per limit in order; they share one hash tag. */
    List<String> keys(String subject);
}
