package io.redkit.session;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A live session as it was stored: its id (the cookie's value), whose it is, its data, when it was created and
 * when it ends however busy it is. {@link #toString()} shows a prefix of the id and the user only, never the data.
 *
 * @param id the session id
 * @param userId whose session it is (the key of the per-user index that revoke-all reads)
 * @param data the application's data
 * @param createdAt when the session was created (wall clock of the instance that created it)
 * @param absoluteExpiry when the session ends whatever its activity; renewal never moves it
 * @param revision how many times the data was updated: an update writes only over the revision it was read at
 * @param <T> the data type
 */
public record Session<T>(SessionId id, String userId, T data, Instant createdAt, Instant absoluteExpiry,
        long revision) {

    /** Refuses a missing field. */
    public Session {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(absoluteExpiry, "absoluteExpiry");
        if (revision < 0) {
            throw new IllegalArgumentException("revision must be >= 0, was " + revision);
        }
    }

    /** A session at its first revision (0), as {@link SessionStore#create} makes it. */
    public Session(SessionId id, String userId, T data, Instant createdAt, Instant absoluteExpiry) {
        this(id, userId, data, createdAt, absoluteExpiry, 0);
    }

    /** How long the session may live at most from {@code now}; zero once past: a cookie's Max-Age. */
    public Duration lifetimeLeft(Instant now) {
        Duration left = Duration.between(now, absoluteExpiry);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** The id's prefix, the user and the times; never the full id nor the data. */
    @Override
    public String toString() {
        return "Session[" + id.shortForm() + ", user=" + userId + ", createdAt=" + createdAt + ", absoluteExpiry="
                + absoluteExpiry + ", revision=" + revision + "]";
    }
}
