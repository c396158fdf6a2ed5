package io.redkit.session.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.KeySchema;
import io.redkit.RedisOps;
import io.redkit.session.Session;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionId;
import io.redkit.session.SessionStoreUnavailableException;

/**
 * Writes a session's key and its entry in its user's index, and takes them back, in the order that keeps every
 * usable session listed: the key first, then the index; a session whose index write failed is deleted again. Names
 * the keys: a session's is its id's digest, never the id.
 */
final class SessionWriter<T> {

    /* Under the store's name: where the store's log lines were before they moved here. */
    private static final Logger log = LoggerFactory.getLogger(DefaultSessionStore.class);
    /** Fresh ids drawn when SET NX finds one taken: never expected (2^-256), bounded all the same. */
    private static final int ID_ATTEMPTS = 3;

    private final SessionConfig config;
    private final RedisOps ops;
    private final KeySchema sessions;
    private final UserIndex index;
    private final SessionCoder<T> coder;
    private final Guard guard;

    SessionWriter(SessionConfig config, RedisOps ops, UserIndex index, SessionCoder<T> coder, Guard guard) {
        this.config = config;
        this.ops = ops;
        this.sessions = KeySchema.of(config.namespace());
        this.index = index;
        this.coder = coder;
        this.guard = guard;
    }

    /** The key of a session: its id's digest, never the id. */
    String key(SessionId id) {
        return sessions.key(id.digest());
    }

    /** The key named by an index member or, for a session of an earlier release, by its raw id. */
    String keyOf(String member) {
        return sessions.key(member);
    }

    /** A new session of {@code userId}, created at {@code now}, ending one absolute lifetime later. */
    Session<T> fresh(SessionId id, String userId, T data, long now) {
        requireUserId(userId);
        Objects.requireNonNull(data, "data");
        return new Session<>(id, userId, data, Instant.ofEpochMilli(now),
                Instant.ofEpochMilli(now + config.absoluteLifetime().toMillis()));
    }

    /*
     * The session key first, then the index: a session whose index write failed is deleted again before the
     * failure is reported, and its id was never handed out, so no usable session is ever missing from its index.
     */
    Session<T> insert(Session<T> session, long now, String operation) {
        Session<T> s = session;
        int attempt = 1;
        while (!setIfAbsent(s, now, operation)) {
            if (attempt++ == ID_ATTEMPTS) {
                throw new IllegalStateException("store '" + config.namespace() + "': " + ID_ATTEMPTS
                        + " fresh session ids were all taken; the random source is broken");
            }
            s = new Session<>(SessionId.generate(), s.userId(), s.data(), s.createdAt(), s.absoluteExpiry());
        }
        Session<T> created = s;
        try {
            guard.run(operation + ": list in the user's index", index.key(created.userId()), () -> {
                index.add(created.userId(), created.id().digest(), created.absoluteExpiry().toEpochMilli(), now);
                return null;
            });
        } catch (SessionStoreUnavailableException e) {
            Guard.bestEffort(() -> ops.delete(key(created.id())), e);
            throw e;
        }
        return created;
    }

    private boolean setIfAbsent(Session<T> s, long now, String operation) {
        byte[] bytes = coder.encode(s);
        String key = key(s.id());
        return guard.run(operation, key, () -> ops.setIfAbsent(key, bytes, Duration.ofMillis(ttlMillis(s, now))));
    }

    /** Deletes the session's key and its index entry, unguarded: the caller guards it. */
    Void discard(Session<T> s) {
        ops.delete(key(s.id()));
        index.remove(s.userId(), s.id().digest());
        return null;
    }

    /** Takes an ended session out of its user's index; a failure leaves a member that later DELs cost nothing. */
    void unlist(Session<T> s) {
        unlist(s.userId(), s.id().digest());
    }

    void unlist(String userId, String member) {
        try {
            guard.run("unlist", index.key(userId), () -> {
                index.remove(userId, member);
                return null;
            });
        } catch (SessionStoreUnavailableException e) {
            log.debug("store '{}': a session left in its user's index: {}", config.namespace(), e.getMessage());
        }
    }

    /** The key's time to live: the idle timeout, cut to what is left of the absolute lifetime. */
    long ttlMillis(Session<T> s, long now) {
        return Math.min(config.idleTimeout().toMillis(), s.absoluteExpiry().toEpochMilli() - now);
    }

    static void requireUserId(String userId) {
        Checks.keyPart("userId", userId, SessionConfig.MAX_USER_ID_LENGTH);
    }

    /** A script argument in ASCII. */
    static byte[] ascii(long value) {
        return ascii(Long.toString(value));
    }

    static byte[] ascii(String value) {
        return value.getBytes(StandardCharsets.US_ASCII);
    }
}
