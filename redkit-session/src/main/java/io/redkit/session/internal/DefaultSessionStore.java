package io.redkit.session.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.KeySchema;
import io.redkit.RedisCommandException;
import io.redkit.RedisOps;
import io.redkit.Redkit;
import io.redkit.RedkitClock;
import io.redkit.session.Session;
import io.redkit.session.SessionCodec;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionHealth;
import io.redkit.session.SessionId;
import io.redkit.session.SessionScripts;
import io.redkit.session.SessionStore;
import io.redkit.session.SessionStoreUnavailableException;

/**
 * The session store. A load is one script on one key (one round trip); create, rotate and revoke write a session
 * key and its user's index key, which on Cluster live in different slots, so they are separate commands in an
 * order chosen so that a failure half-way never leaves a usable session outside the index or a dead id alive.
 *
 * <p>Times are the client's wall clock ({@link RedkitClock#wallMillis()}), the clock that writes the absolute
 * expiry and the one that checks it; instances whose clocks disagree by s end a session up to s early or late,
 * which NTP keeps to milliseconds against a lifetime of hours. The idle timeout is a relative TTL that Redis keeps,
 * untouched by skew. The server's {@code TIME} would need a script for every create to build the header, and the
 * client's clock is the one a test can move.
 */
public final class DefaultSessionStore<T> implements SessionStore<T> {

    private static final Logger log = LoggerFactory.getLogger(DefaultSessionStore.class);
    private static final byte[] ENDED = {'-'};
    private static final byte[] NOT_A_SESSION = {'!'};
    /** Fresh ids drawn when SET NX finds one taken: never expected (2^-256), bounded all the same. */
    private static final int ID_ATTEMPTS = 3;

    private final SessionConfig config;
    private final RedisOps ops;
    private final RedkitClock clock;
    private final KeySchema sessions;
    private final UserIndex index;
    private final SessionCoder<T> coder;
    private final SessionMetrics metrics;
    private final Readiness readiness;
    private final Guard guard;
    private final byte[] idleMillis;

    /** Builds the store; use {@link SessionStore#builder}. */
    public DefaultSessionStore(Redkit redkit, SessionCodec<T> codec, SessionConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.ops = config.timeout() == null ? redkit.commands() : redkit.commands().withTimeout(config.timeout());
        this.clock = redkit.clock();
        this.sessions = KeySchema.of(config.namespace());
        this.index = new UserIndex(config, ops);
        this.coder = new SessionCoder<>(config, Objects.requireNonNull(codec, "codec"));
        this.metrics = new SessionMetrics(redkit.meters(), redkit.config().name(), config.namespace());
        this.readiness = new Readiness(ops, clock);
        this.guard = new Guard(config.namespace(), readiness, metrics::unavailable);
        this.idleMillis = ascii(config.idleTimeout().toMillis());
        metrics.readyGauge(() -> readiness.isReady() ? 1 : 0);
    }

    @Override
    public Session<T> create(String userId, T data) {
        long now = clock.wallMillis();
        Session<T> session = fresh(SessionId.generate(), userId, data, now);
        Session<T> created = insert(session, now, "create");
        metrics.created();
        return created;
    }

    @Override
    public Optional<Session<T>> load(String cookieValue) {
        Optional<SessionId> id = SessionId.tryParse(cookieValue);
        if (id.isEmpty()) {
            metrics.invalid();
            return Optional.empty();
        }
        return load(id.get());
    }

    @Override
    public Optional<Session<T>> load(SessionId id) {
        Objects.requireNonNull(id, "id");
        long start = clock.nanoTime();
        String key = sessions.key(id.value());
        byte[] reply = guard.run("load", () -> touch(key));
        if (reply == null) {
            return loaded(SessionMetrics.Load.MISS, start, id);
        }
        if (Arrays.equals(reply, ENDED)) {
            return loaded(SessionMetrics.Load.EXPIRED, start, id);
        }
        if (Arrays.equals(reply, NOT_A_SESSION)) {
            return loaded(SessionMetrics.Load.CORRUPT, start, id);
        }
        SessionCoder.Read<T> read = coder.decode(id, reply);
        switch (read.status()) {
            case VALID -> {
                metrics.load(SessionMetrics.Load.HIT, clock.nanoTime() - start);
                return Optional.of(read.session());
            }
            case NEWER -> {
                return loaded(SessionMetrics.Load.NEWER, start, id);
            }
            default -> {
                // Not this id's session in a form we know: end it rather than serve a guess.
                guard.run("end unreadable session", () -> ops.delete(key));
                return loaded(SessionMetrics.Load.CORRUPT, start, id);
            }
        }
    }

    private byte[] touch(String key) {
        try {
            return ops.eval(SessionScripts.TOUCH, List.of(key), ascii(clock.wallMillis()), idleMillis);
        } catch (RedisCommandException e) {
            if (!isWrongType(e)) {
                throw e;
            }
            // Something that is not a string under a session key: not a session, and not an outage either.
            ops.delete(key);
            return NOT_A_SESSION;
        }
    }

    private Optional<Session<T>> loaded(SessionMetrics.Load result, long start, SessionId id) {
        metrics.load(result, clock.nanoTime() - start);
        if (result == SessionMetrics.Load.CORRUPT) {
            log.warn("store '{}': session {} was not readable as a session and has been ended", config.namespace(),
                    id.shortForm());
        }
        return Optional.empty();
    }

    @Override
    public Optional<Session<T>> update(Session<T> session, T data) {
        Objects.requireNonNull(session, "session");
        Session<T> updated = new Session<>(session.id(), session.userId(), Objects.requireNonNull(data, "data"),
                session.createdAt(), session.absoluteExpiry());
        byte[] bytes = coder.encode(updated);
        long ttl = ttlMillis(updated, clock.wallMillis());
        if (ttl <= 0) {
            return Optional.empty();
        }
        long written = guard.run("update", () -> ops.eval(SessionScripts.UPDATE,
                List.of(sessions.key(session.id().value())), bytes, ascii(ttl)));
        return written == 1 ? Optional.of(updated) : Optional.empty();
    }

    @Override
    public Optional<Session<T>> rotate(Session<T> session) {
        Objects.requireNonNull(session, "session");
        return rotate(session, session.userId(), session.data());
    }

    /*
     * New key first (SET NX), listed in the index, then the old key deleted: at every step the user has a live
     * session, so a failure never loses it. The old DEL decides: 0 means the session had ended (revoked, expired)
     * and the new one is taken back, so rotation never revives a revoked session. If the DEL fails, the rotation
     * fails closed: its point is that the old id dies (session fixation), and it may not have.
     */
    @Override
    public Optional<Session<T>> rotate(Session<T> session, String userId, T data) {
        Objects.requireNonNull(session, "session");
        long now = clock.wallMillis();
        Session<T> next = userId != null && userId.equals(session.userId())
                ? new Session<>(SessionId.generate(), userId, Objects.requireNonNull(data, "data"),
                        session.createdAt(), session.absoluteExpiry())
                : fresh(SessionId.generate(), userId, data, now);
        if (ttlMillis(next, now) <= 0) {
            revoke(session);
            return Optional.empty();
        }
        Session<T> inserted = insert(next, now, "rotate");
        String newKey = sessions.key(inserted.id().value());
        long deleted;
        try {
            deleted = guard.run("rotate: delete the old id", () -> ops.delete(sessions.key(session.id().value())));
        } catch (SessionStoreUnavailableException e) {
            Guard.bestEffort(() -> discard(inserted, newKey), e);
            throw e;
        }
        if (deleted == 0) {
            guard.run("rotate: take back the new id", () -> discard(inserted, newKey));
            return Optional.empty();
        }
        unlist(session);
        metrics.rotated();
        return Optional.of(inserted);
    }

    @Override
    public boolean revoke(String cookieValue) {
        Optional<SessionId> id = SessionId.tryParse(cookieValue);
        if (id.isEmpty()) {
            metrics.invalid();
            return false;
        }
        long deleted = guard.run("revoke", () -> ops.delete(sessions.key(id.get().value())));
        metrics.revoked((int) deleted);
        return deleted > 0;
    }

    @Override
    public boolean revoke(Session<T> session) {
        Objects.requireNonNull(session, "session");
        boolean revoked = revoke(session.id().value());
        unlist(session);
        return revoked;
    }

    /*
     * Reads the index a page at a time, deletes those sessions (one DEL; on Cluster the client splits it per slot)
     * and takes exactly those ids out of the index, never the whole key: an id a concurrent login adds meanwhile
     * stays listed for the next revoke-all.
     */
    @Override
    public int revokeAll(String userId) {
        requireUserId(userId);
        int ended = 0;
        while (true) {
            List<String> ids = guard.run("revoke all: read the index", () -> index.page(userId));
            if (ids.isEmpty()) {
                break;
            }
            String[] keys = ids.stream().map(sessions::key).toArray(String[]::new);
            ended += (int) (long) guard.run("revoke all: delete", () -> ops.delete(keys));
            guard.run("revoke all: unlist", () -> {
                index.remove(userId, ids.toArray(String[]::new));
                return null;
            });
            if (ids.size() < UserIndex.PAGE) {
                break;
            }
        }
        metrics.revoked(ended);
        return ended;
    }

    @Override
    public SessionHealth health() {
        return readiness.health();
    }

    @Override
    public SessionConfig config() {
        return config;
    }

    /*
     * The session key first, then the index: a session whose index write failed is deleted again before the
     * failure is reported, and its id was never handed out, so no usable session is ever missing from its index.
     */
    private Session<T> insert(Session<T> session, long now, String operation) {
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
            guard.run(operation + ": list in the user's index", () -> {
                index.add(created.userId(), created.id().value(), created.absoluteExpiry().toEpochMilli(), now);
                return null;
            });
        } catch (SessionStoreUnavailableException e) {
            Guard.bestEffort(() -> ops.delete(sessions.key(created.id().value())), e);
            throw e;
        }
        return created;
    }

    private boolean setIfAbsent(Session<T> s, long now, String operation) {
        byte[] bytes = coder.encode(s);
        return guard.run(operation, () -> ops.setIfAbsent(sessions.key(s.id().value()), bytes,
                Duration.ofMillis(ttlMillis(s, now))));
    }

    private Session<T> fresh(SessionId id, String userId, T data, long now) {
        requireUserId(userId);
        Objects.requireNonNull(data, "data");
        return new Session<>(id, userId, data, Instant.ofEpochMilli(now),
                Instant.ofEpochMilli(now + config.absoluteLifetime().toMillis()));
    }

    private Void discard(Session<T> s, String key) {
        ops.delete(key);
        index.remove(s.userId(), s.id().value());
        return null;
    }

    /** Takes an ended session out of its user's index; a failure leaves a member that later DELs cost nothing. */
    private void unlist(Session<T> s) {
        try {
            guard.run("unlist", () -> {
                index.remove(s.userId(), s.id().value());
                return null;
            });
        } catch (SessionStoreUnavailableException e) {
            log.debug("store '{}': session {} left in its user's index: {}", config.namespace(), s.id().shortForm(),
                    e.getMessage());
        }
    }

    /** The key's time to live: the idle timeout, cut to what is left of the absolute lifetime. */
    private long ttlMillis(Session<T> s, long now) {
        return Math.min(config.idleTimeout().toMillis(), s.absoluteExpiry().toEpochMilli() - now);
    }

    private static void requireUserId(String userId) {
        Checks.keyPart("userId", userId, SessionConfig.MAX_USER_ID_LENGTH);
    }

    private static boolean isWrongType(RedisCommandException e) {
        return "WRONGTYPE".equals(e.errorCode()) || String.valueOf(e.getMessage()).contains("WRONGTYPE");
    }

    private static byte[] ascii(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return "SessionStore[" + config + "]";
    }
}
