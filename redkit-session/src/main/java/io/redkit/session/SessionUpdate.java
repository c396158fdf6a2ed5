package io.redkit.session;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link SessionStore#update(Session, Object)} did: the data was written over the revision the caller read,
 * or another update came first (nothing written; the session as it is now, to re-apply the change to), or the
 * session has ended. Never a silent overwrite of a change the caller did not see.
 *
 * @param <T> the data type
 */
public sealed interface SessionUpdate<T> {

    /** The session as written, when the update was; empty on a conflict or when the session has ended. */
    default Optional<Session<T>> written() {
        return this instanceof Updated<T> u ? Optional.of(u.session()) : Optional.empty();
    }

    /**
     * Written: the session now holds the new data at the next revision.
     *
     * @param session the session as stored now
     * @param <T> the data type
     */
    record Updated<T>(Session<T> session) implements SessionUpdate<T> {
        /** Refuses a missing session. */
        public Updated {
            Objects.requireNonNull(session, "session");
        }
    }

    /**
     * Not written: the stored session is not the revision the caller read (another update came first, or the
     * caller's record was not what is stored). {@code current} is what is stored now.
     *
     * @param current the session as stored now, with its revision
     * @param <T> the data type
     */
    record Conflict<T>(Session<T> current) implements SessionUpdate<T> {
        /** Refuses a missing session. */
        public Conflict {
            Objects.requireNonNull(current, "current");
        }
    }

    /**
     * Not written: the session has ended (revoked, expired, rotated away); an update never brings it back.
     *
     * @param <T> the data type
     */
    record Ended<T>() implements SessionUpdate<T> {
    }
}
