package io.redkit.session;

import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

import io.redkit.Redkit;
import io.redkit.session.internal.DefaultSessionStore;

/**
 * Server-side sessions in Redis, typed: {@code sess:{<digest of the id>}} holds one session, its idle timeout
 * renewed by every load in the same round trip, and ended by an absolute lifetime that renewal never extends.
 * Redis never holds an id, only its SHA-256 ({@link SessionId#digest()}): nothing read from it is a usable cookie.
 *
 * <pre>{@code
 * SessionStore<Account> sessions = SessionStore.builder(redkit, Account.class).build();
 * Session<Account> s = sessions.create(account.id(), account);        // on login
 * response.addHeader("Set-Cookie", cookie.header(s, Instant.now()));
 * Optional<Session<Account>> current = sessions.load(cookieValue);    // on every request: one round trip
 * }</pre>
 *
 * <p>Sessions fail CLOSED: when Redis cannot answer, a method throws {@link SessionStoreUnavailableException}
 * within the command timeout (300 ms by default) and {@link #health()} turns NOT_READY; from then on every call
 * throws it at once, unsent, until a background probe gets an answer (within milliseconds of Redis answering).
 * An empty result always means "no such session", never "Redis is down". Sessions read and write the master only.
 *
 * <p>Writers of one session never undo each other silently: every stored session has a revision, an update
 * writes only over the revision it read ({@link SessionUpdate.Conflict} otherwise), and a rotation copies what is
 * stored and retires the old id only if nothing was written to it since.
 *
 * @param <T> the type of the session's data
 */
public interface SessionStore<T> {

    /** A builder of a store whose data is JSON of {@code type} (the default codec). */
    static <T> Builder<T> builder(Redkit redkit, Class<T> type) {
        return new Builder<>(redkit, JsonSessionCodec.of(type));
    }

    /** A builder of a store with another codec. */
    static <T> Builder<T> builder(Redkit redkit, SessionCodec<T> codec) {
        return new Builder<>(redkit, codec);
    }

    /**
     * A new session for {@code userId} with a fresh id, recorded in the user's index; on login, prefer
     * {@link #rotate(Session, String, Object)} when the request already had a session.
     *
     * @throws SessionTooLargeException when the stored form is above the limit
     * @throws SessionStoreUnavailableException when Redis did not answer (nothing usable was created)
     */
    Session<T> create(String userId, T data);

    /**
     * The session a cookie names, its idle timeout renewed in the same round trip (capped by what is left of its
     * absolute lifetime). Empty, without touching Redis, when {@code cookieValue} is not an id; empty when there
     * is no such session, it has expired, or its stored form cannot be read (it is then ended).
     *
     * @throws SessionStoreUnavailableException when Redis did not answer: never an empty result for an outage
     */
    Optional<Session<T>> load(String cookieValue);

    /** {@link #load(String)} of a parsed id. */
    Optional<Session<T>> load(SessionId id);

    /**
     * Replaces the session's data if it is still at {@code session}'s revision, keeping its id, user and lifetimes
     * as stored (a caller's copy of the record cannot move them) and renewing its idle timeout: {@link
     * SessionUpdate.Updated} with the next revision; {@link SessionUpdate.Conflict} with what is stored when another
     * update came first (nothing written: re-apply the change to it, or use {@link #update(SessionId,
     * UnaryOperator)}); {@link SessionUpdate.Ended} when the session has ended (revoked, expired, rotated away): an
     * update never brings a session back.
     *
     * @throws SessionTooLargeException when the stored form is above the limit
     * @throws SessionStoreUnavailableException when Redis did not answer; the update may then have happened
     */
    SessionUpdate<T> update(Session<T> session, T data);

    /**
     * Loads the session and writes {@code change} of its data, applying it again to what is stored whenever
     * another update came first (one round trip per attempt: a conflict answers with the stored value), so that
     * no concurrent change is lost. Empty when there is no such session or it ended meanwhile. {@code change} may
     * run several times and must only compute.
     *
     * @throws SessionConflictException when it kept losing to other writers for 5 seconds (nothing written)
     * @throws SessionTooLargeException when the stored form is above the limit
     * @throws SessionStoreUnavailableException when Redis did not answer; the update may then have happened
     */
    Optional<Session<T>> update(SessionId id, UnaryOperator<T> change);

    /**
     * The same session under a fresh id, for a privilege change: what is stored (its data, user and lifetimes,
     * not the caller's copy, which an update may have overtaken) carries over, and the old id is dead once this
     * returns. An update that lands during the rotation is carried too: the old id is retired only if it still
     * holds what was copied, else the copy is taken back and made again. Empty when the session had already ended
     * (it is not brought back).
     *
     * @throws SessionConflictException when updates overtook every attempt (nothing changed)
     * @throws SessionStoreUnavailableException when Redis did not answer; the old id may then still be live
     */
    Optional<Session<T>> rotate(Session<T> session);

    /**
     * A fresh id for a login on top of an existing session, holding {@code data}: the old id is dead once this
     * returns. The same user keeps the session's stored lifetimes (rotation never extends them); another user (an
     * anonymous session signing in) starts fresh ones. Empty when the old session had already ended.
     *
     * @throws SessionConflictException when updates overtook every attempt (nothing changed)
     * @throws SessionStoreUnavailableException when Redis did not answer; the old id may then still be live
     */
    Optional<Session<T>> rotate(Session<T> session, String userId, T data);

    /**
     * Ends the session at once (DEL): the next load of its id is empty. False when there was none, or when
     * {@code cookieValue} is not an id.
     *
     * @throws SessionStoreUnavailableException when Redis did not answer: the logout may not have happened
     */
    boolean revoke(String cookieValue);

    /** {@link #revoke(String)} of a loaded session, also taking it out of its user's index. */
    boolean revoke(Session<T> session);

    /**
     * Ends every session of {@code userId} ("sign out everywhere") and returns how many were live. A session
     * created or rotated while this runs may survive it, as if created just after; it is in the user's index, so
     * the next call ends it.
     *
     * @throws SessionStoreUnavailableException when Redis did not answer; some sessions may have ended
     */
    int revokeAll(String userId);

    /**
     * READY or NOT_READY, and since when: NOT_READY from the first call Redis did not answer until the background
     * probe gets an answer, and every call meanwhile fails at once. When no call has looked for a second, this
     * asks Redis itself (a PING, within the timeout), so that a store no request reaches still learns of an outage.
     */
    SessionHealth health();

    /** The configuration. */
    SessionConfig config();

    /**
     * Builds a {@link SessionStore}.
     *
     * @param <T> the type of the session's data
     */
    final class Builder<T> {
        private final Redkit redkit;
        private SessionCodec<T> codec;
        private SessionConfig config = SessionConfig.defaults();

        private Builder(Redkit redkit, SessionCodec<T> codec) {
            this.redkit = Objects.requireNonNull(redkit, "redkit");
            this.codec = Objects.requireNonNull(codec, "codec");
        }

        /** The configuration (default {@link SessionConfig#defaults()}). */
        public Builder<T> config(SessionConfig value) {
            this.config = Objects.requireNonNull(value, "config");
            return this;
        }

        /** Another codec for the data. */
        public Builder<T> codec(SessionCodec<T> value) {
            this.codec = Objects.requireNonNull(value, "codec");
            return this;
        }

        /** The store. */
        public SessionStore<T> build() {
            return new DefaultSessionStore<>(redkit, codec, config);
        }
    }
}
