package io.redkit.session.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.KeySchema;
import io.redkit.RedisCommandException;
import io.redkit.RedisOps;
import io.redkit.Redkit;
import io.redkit.RedkitClock;
import io.redkit.session.Session;
import io.redkit.session.SessionCodec;
import io.redkit.session.SessionConflictException;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionHealth;
import io.redkit.session.SessionId;
import io.redkit.session.SessionScripts;
import io.redkit.session.SessionStore;
import io.redkit.session.SessionStoreUnavailableException;
import io.redkit.session.SessionUpdate;

/**
 * The session store. A load is one script on one key (one round trip); create, rotate and revoke write a session
 * key and its user's index key, which on Cluster live in different slots, so they are separate commands in an
 * order chosen so that a failure half-way never leaves a usable session outside the index or a dead id alive.
 * Redis holds each id's digest ({@link SessionId#digest()}), in the key and in the index, never the id.
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
    private static final byte[] WRITTEN = {'='};
    /**
     * How long a read-modify-write that keeps losing to other writers of the session (an update by function, a
     * rotation) goes on trying before it gives up. A loser learns the stored value in the same round trip and
     * tries again with it at once; losing again, it pauses at random up to a ceiling that doubles from
     * {@link #FIRST_BACKOFF_NANOS} to {@link #MAX_BACKOFF_NANOS} and reads the session afresh, so that writers that
     * met stop meeting in step. 16 threads incrementing one session's counter at once all get through, well
     * within it.
     */
    static final Duration WRITE_PATIENCE = Duration.ofSeconds(5);
    private static final long FIRST_BACKOFF_NANOS = 20_000;
    private static final long MAX_BACKOFF_NANOS = 5_000_000;

    private final SessionConfig config;
    private final RedisOps ops;
    private final RedkitClock clock;
    private final KeySchema sessions;
    private final UserIndex index;
    private final SessionCoder<T> coder;
    private final SessionMetrics metrics;
    private final Guard guard;
    private final RawIdUpgrade upgrade;
    private final byte[] idleMillis;

    /** Builds the store; use {@link SessionStore#builder}. */
    public DefaultSessionStore(Redkit redkit, SessionCodec<T> codec, SessionConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        redkit.scripts().register(SessionScripts.ALL);
        this.ops = config.timeout() == null ? redkit.commands() : redkit.commands().withTimeout(config.timeout());
        this.clock = redkit.clock();
        this.sessions = KeySchema.of(config.namespace());
        this.index = new UserIndex(config, ops);
        this.coder = new SessionCoder<>(config, Objects.requireNonNull(codec, "codec"));
        this.metrics = new SessionMetrics(redkit.meters(), redkit.config().name(), config.namespace());
        this.guard = new Guard(redkit, "sessions", config.namespace(), metrics::unavailable);
        this.upgrade = new RawIdUpgrade(config, ops, guard);
        this.idleMillis = ascii(config.idleTimeout().toMillis());
        metrics.readyGauge(() -> guard.isReady() ? 1 : 0);
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
        String key = key(id);
        byte[] reply = guard.run("load", key, () -> touch(key));
        if (reply == null && upgrade.open(clock.wallMillis())) {
            return upgraded(id, start);
        }
        return read(id, key, reply, start);
    }

    private Optional<Session<T>> read(SessionId id, String key, byte[] reply, long start) {
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
                guard.run("end unreadable session", key, () -> ops.delete(key));
                return loaded(SessionMetrics.Load.CORRUPT, start, id);
            }
        }
    }

    /*
     * A session an earlier release stored under its raw id, moved to its digest key: read (never renewed nor ended
     * from here: a raw-id key has the shape of a digest key, and when a digest read from Redis comes as a cookie its
     * "raw-id key" is another user's session), copied (SET NX, so two loads racing move it once), listed under its
     * digest, and only then the raw-id key ended, if it still holds exactly what was copied. A logout or an update
     * by an earlier release in between makes that refuse: the copy is taken back, so a logout is never undone.
     * Each step that fails leaves the session under keys that are listed, so a logout or revoke-all still ends it.
     */
    private Optional<Session<T>> upgraded(SessionId id, long start) {
        String rawKey = sessions.key(id.value());
        byte[] raw = guard.run("load from a raw-id key", rawKey, () -> ops.get(rawKey).orElse(null));
        SessionCoder.Read<T> found = raw == null || !Envelope.isFirstFormat(raw) ? null : coder.decode(id, raw);
        if (found == null || found.status() != Envelope.Status.VALID) {
            return loaded(SessionMetrics.Load.MISS, start, id);
        }
        Session<T> s = found.session();
        long now = clock.wallMillis();
        long ttl = ttlMillis(s, now);
        if (ttl <= 0) {
            return loaded(SessionMetrics.Load.EXPIRED, start, id);
        }
        String key = key(id);
        if (!guard.run("upgrade: copy to the digest key", key,
                () -> ops.setIfAbsent(key, raw, Duration.ofMillis(ttl)))) {
            return read(id, key, guard.run("load", key, () -> touch(key)), start); // a racing load moved it
        }
        try {
            guard.run("upgrade: list the digest", index.key(s.userId()), () -> {
                index.add(s.userId(), id.digest(), s.absoluteExpiry().toEpochMilli(), now);
                return null;
            });
        } catch (SessionStoreUnavailableException e) {
            Guard.bestEffort(() -> ops.delete(key), e);
            throw e;
        }
        long retired = guard.run("upgrade: end the raw-id key", rawKey, () -> ops.eval(SessionScripts.RETIRE_RAW,
                List.of(rawKey), ascii(Envelope.fingerprint(id)), raw));
        if (retired != 1) {
            guard.run("upgrade: take back the copy", null, () -> discard(s));
            return loaded(SessionMetrics.Load.MISS, start, id);
        }
        unlist(s.userId(), id.value());
        metrics.upgraded();
        metrics.load(SessionMetrics.Load.HIT, clock.nanoTime() - start);
        return Optional.of(s);
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
    public SessionUpdate<T> update(Session<T> session, T data) {
        Objects.requireNonNull(session, "session");
        Session<T> updated = new Session<>(session.id(), session.userId(), Objects.requireNonNull(data, "data"),
                session.createdAt(), session.absoluteExpiry(), session.revision() + 1);
        byte[] bytes = coder.encode(updated);
        String key = key(session.id());
        byte[] reply = guard.run("update", key, () -> ops.eval(SessionScripts.UPDATE, List.of(key), bytes,
                ascii(session.revision()), ascii(clock.wallMillis()), idleMillis));
        if (reply == null) {
            return new SessionUpdate.Ended<>();
        }
        if (Arrays.equals(reply, WRITTEN)) {
            return new SessionUpdate.Updated<>(updated);
        }
        SessionCoder.Read<T> current = coder.decode(session.id(), reply);
        // Stored but unreadable here: the next load ends it (corrupt) or leaves it to a newer release.
        return current.status() == Envelope.Status.VALID ? new SessionUpdate.Conflict<>(current.session())
                : new SessionUpdate.Ended<>();
    }

    @Override
    public Optional<Session<T>> update(SessionId id, UnaryOperator<T> change) {
        Objects.requireNonNull(change, "change");
        Optional<Session<T>> loaded = load(id);
        long deadline = clock.nanoTime() + WRITE_PATIENCE.toNanos();
        for (int attempt = 1; loaded.isPresent(); attempt++) {
            Session<T> current = loaded.get();
            SessionUpdate<T> result = update(current, Objects.requireNonNull(change.apply(current.data()),
                    "the change returned null"));
            if (!(result instanceof SessionUpdate.Conflict<T> conflict)) {
                return result.written();
            }
            if (attempt == 1) {
                loaded = Optional.of(conflict.current()); // as fresh as a read: try it at once
            } else {
                giveUpAfter(deadline, "update", attempt);
                backOff(attempt);
                loaded = load(id);
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<Session<T>> rotate(Session<T> session) {
        Objects.requireNonNull(session, "session");
        return rotating(session, null, null);
    }

    @Override
    public Optional<Session<T>> rotate(Session<T> session, String userId, T data) {
        Objects.requireNonNull(session, "session");
        requireUserId(userId);
        Objects.requireNonNull(data, "data");
        return rotating(session, userId, data);
    }

    /** Rotation, attempted until it does not lose to an update; null user and data: what is stored. */
    private Optional<Session<T>> rotating(Session<T> session, String userId, T data) {
        long deadline = clock.nanoTime() + WRITE_PATIENCE.toNanos();
        for (int attempt = 1; ; attempt++) {
            Optional<Optional<Session<T>>> done = rotateOnce(session, userId, data);
            if (done.isPresent()) {
                return done.get();
            }
            giveUpAfter(deadline, "rotate", attempt);
            backOff(attempt);
        }
    }

    /*
     * One attempt: what is stored now is read (never the caller's copy: its data may be older than an update, its
     * times anything), copied under a fresh id (SET NX) and listed, then the old key is retired only if it still
     * holds the revision copied. An update that landed in between makes the retire refuse: the new id is taken
     * back and the caller tries again with the fresh value. The old key ended meanwhile (revoked, expired): the new
     * id is taken back and the rotation answers empty, so it never revives a revoked session. If the retire
     * fails, the rotation fails closed: its point is that the old id dies (session fixation), and it may not have.
     * Empty when this attempt lost to an update.
     */
    private Optional<Optional<Session<T>>> rotateOnce(Session<T> session, String userId, T data) {
        Optional<Session<T>> loaded = load(session.id());
        if (loaded.isEmpty()) {
            unlist(session);
            return Optional.of(Optional.empty());
        }
        Session<T> stored = loaded.get();
        long now = clock.wallMillis();
        Session<T> next = userId == null || userId.equals(stored.userId())
                ? new Session<>(SessionId.generate(), stored.userId(), data == null ? stored.data() : data,
                        stored.createdAt(), stored.absoluteExpiry())
                : fresh(SessionId.generate(), userId, data, now);
        if (ttlMillis(next, now) <= 0) {
            revoke(stored);
            return Optional.of(Optional.empty());
        }
        Session<T> inserted = insert(next, now, "rotate");
        String oldKey = key(stored.id());
        long retired;
        try {
            retired = guard.run("rotate: retire the old id", oldKey, () -> ops.eval(SessionScripts.RETIRE,
                    List.of(oldKey), ascii(stored.revision())));
        } catch (SessionStoreUnavailableException e) {
            Guard.bestEffort(() -> discard(inserted), e);
            throw e;
        }
        if (retired != 1) {
            guard.run("rotate: take back the new id", null, () -> discard(inserted));
            return retired == 0 ? Optional.of(Optional.empty()) : Optional.empty();
        }
        unlist(stored);
        metrics.rotated();
        return Optional.of(Optional.of(inserted));
    }

    /** A random pause before another attempt, so that writers of one session stop meeting in step. */
    private static void backOff(int attempt) {
        long ceiling = Math.min(MAX_BACKOFF_NANOS, FIRST_BACKOFF_NANOS << Math.min(attempt - 1, 20));
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(ceiling + 1));
    }

    private void giveUpAfter(long deadline, String operation, int attempts) {
        if (clock.nanoTime() - deadline > 0) {
            throw new SessionConflictException(config.namespace(), operation, attempts, WRITE_PATIENCE);
        }
    }

    @Override
    public boolean revoke(String cookieValue) {
        Optional<SessionId> id = SessionId.tryParse(cookieValue);
        if (id.isEmpty()) {
            metrics.invalid();
            return false;
        }
        SessionId sid = id.get();
        String key = key(sid);
        long deleted = guard.run("revoke", key, () -> ops.delete(key));
        if (upgrade.open(clock.wallMillis())) {
            // A session of an earlier release may still be under its raw id: the logout ends it there too, and
            // nothing else (the same key is another user's session when a digest comes as the cookie).
            String rawKey = sessions.key(sid.value());
            deleted += guard.run("revoke: the raw-id key", rawKey, () -> ops.eval(SessionScripts.RETIRE_RAW,
                    List.of(rawKey), ascii(Envelope.fingerprint(sid))));
        }
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
            // Digests, and raw ids of sessions an earlier release listed: each names its session's key.
            List<String> ids = guard.run("revoke all: read the index", index.key(userId), () -> index.page(userId));
            if (ids.isEmpty()) {
                break;
            }
            String[] keys = ids.stream().map(sessions::key).toArray(String[]::new);
            ended += (int) (long) guard.run("revoke all: delete", null, () -> ops.delete(keys));
            guard.run("revoke all: unlist", index.key(userId), () -> {
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
        return guard.health(ops);
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

    private Session<T> fresh(SessionId id, String userId, T data, long now) {
        requireUserId(userId);
        Objects.requireNonNull(data, "data");
        return new Session<>(id, userId, data, Instant.ofEpochMilli(now),
                Instant.ofEpochMilli(now + config.absoluteLifetime().toMillis()));
    }

    private Void discard(Session<T> s) {
        ops.delete(key(s.id()));
        index.remove(s.userId(), s.id().digest());
        return null;
    }

    /** The key of a session: its id's digest, never the id. */
    private String key(SessionId id) {
        return sessions.key(id.digest());
    }

    /** Takes an ended session out of its user's index; a failure leaves a member that later DELs cost nothing. */
    private void unlist(Session<T> s) {
        unlist(s.userId(), s.id().digest());
    }

    private void unlist(String userId, String member) {
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
        return ascii(Long.toString(value));
    }

    private static byte[] ascii(String value) {
        return value.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return "SessionStore[" + config + "]";
    }
}
