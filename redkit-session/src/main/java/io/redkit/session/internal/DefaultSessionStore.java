package io.redkit.session.internal;

import static io.redkit.session.internal.SessionWriter.ascii;
import static io.redkit.session.internal.SessionWriter.requireUserId;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

import io.micrometer.common.KeyValues;
import io.redkit.ObservedOperation;
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
import io.redkit.session.SessionUpdate;

/**
 * The session store. A load is one script on one key (one round trip), by its {@link SessionLoader}; create, rotate
 * and revoke write a session key and its user's index key, which on Cluster live in different slots, so they are
 * separate commands in an order chosen ({@link SessionWriter}) so that a failure half-way never leaves a usable
 * session outside the index or a dead id alive. Redis holds each id's digest ({@link SessionId#digest()}), in the
 * key and in the index, never the id.
 *
 * <p>Times are the client's wall clock ({@link RedkitClock#wallMillis()}), the clock that writes the absolute
 * expiry and the one that checks it; instances whose clocks disagree by s end a session up to s early or late,
 * which NTP keeps to milliseconds against a lifetime of hours. The idle timeout is a relative TTL that Redis keeps,
 * untouched by skew. The server's {@code TIME} would need a script for every create to build the header, and the
 * client's clock is the one a test can move.
 */
public final class DefaultSessionStore<T> implements SessionStore<T> {

    private static final byte[] WRITTEN = {'='};

    private final SessionConfig config;
    private final RedisOps ops;
    private final RedkitClock clock;
    private final UserIndex index;
    private final SessionCoder<T> coder;
    private final SessionMetrics metrics;
    private final Guard guard;
    private final SessionWriter<T> writer;
    private final SessionLoader<T> loader;
    private final byte[] idleMillis;

    /** Builds the store; use {@link SessionStore#builder}. */
    public DefaultSessionStore(Redkit redkit, SessionCodec<T> codec, SessionConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        redkit.scripts().register(SessionScripts.ALL);
        this.ops = config.timeout() == null ? redkit.commands() : redkit.commands().withTimeout(config.timeout());
        this.clock = redkit.clock();
        this.index = new UserIndex(config, ops);
        this.coder = new SessionCoder<>(config, Objects.requireNonNull(codec, "codec"));
        this.metrics = new SessionMetrics(redkit.meters(), redkit.config().name(), config.namespace());
        this.guard = new Guard(redkit, "sessions", config.namespace(), metrics::unavailable);
        this.writer = new SessionWriter<>(config, ops, index, coder, guard);
        SessionRuntime<T> runtime = new SessionRuntime<>(config, ops, clock, index, coder, metrics, guard);
        this.loader = new SessionLoader<>(runtime, writer, new ObservedOperation(redkit, "redkit.session.load",
                "session load " + config.namespace(), KeyValues.of("store", config.namespace())));
        this.idleMillis = ascii(config.idleTimeout().toMillis());
        metrics.readyGauge(() -> guard.isReady() ? 1 : 0);
    }

    @Override
    public Session<T> create(String userId, T data) {
        long now = clock.wallMillis();
        Session<T> session = writer.fresh(SessionId.generate(), userId, data, now);
        Session<T> created = writer.insert(session, now, "create");
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
        return loader.load(id);
    }

    @Override
    public SessionUpdate<T> update(Session<T> session, T data) {
        Objects.requireNonNull(session, "session");
        Session<T> updated = new Session<>(session.id(), session.userId(), Objects.requireNonNull(data, "data"),
                session.createdAt(), session.absoluteExpiry(), session.revision() + 1);
        byte[] bytes = coder.encode(updated);
        String key = writer.key(session.id());
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
        WritePatience patience = WritePatience.start(clock, config.namespace(), "update");
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
                patience.afterLosing(attempt);
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
        WritePatience patience = WritePatience.start(clock, config.namespace(), "rotate");
        for (int attempt = 1; ; attempt++) {
            Optional<Optional<Session<T>>> done = rotateOnce(session, userId, data);
            if (done.isPresent()) {
                return done.get();
            }
            patience.afterLosing(attempt);
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
            writer.unlist(session);
            return Optional.of(Optional.empty());
        }
        Session<T> stored = loaded.get();
        long now = clock.wallMillis();
        Session<T> next = userId == null || userId.equals(stored.userId())
                ? new Session<>(SessionId.generate(), stored.userId(), data == null ? stored.data() : data,
                        stored.createdAt(), stored.absoluteExpiry())
                : writer.fresh(SessionId.generate(), userId, data, now);
        if (writer.ttlMillis(next, now) <= 0) {
            revoke(stored);
            return Optional.of(Optional.empty());
        }
        Session<T> inserted = writer.insert(next, now, "rotate");
        String oldKey = writer.key(stored.id());
        long retired;
        try {
            retired = guard.run("rotate: retire the old id", oldKey, () -> ops.eval(SessionScripts.RETIRE,
                    List.of(oldKey), ascii(stored.revision())));
        } catch (SessionStoreUnavailableException e) {
            Guard.bestEffort(() -> writer.discard(inserted), e);
            throw e;
        }
        if (retired != 1) {
            guard.run("rotate: take back the new id", null, () -> writer.discard(inserted));
            return retired == 0 ? Optional.of(Optional.empty()) : Optional.empty();
        }
        writer.unlist(stored);
        metrics.rotated();
        return Optional.of(Optional.of(inserted));
    }

    @Override
    public boolean revoke(String cookieValue) {
        Optional<SessionId> id = SessionId.tryParse(cookieValue);
        if (id.isEmpty()) {
            metrics.invalid();
            return false;
        }
        SessionId sid = id.get();
        String key = writer.key(sid);
        long deleted = guard.run("revoke", key, () -> ops.delete(key));
        if (loader.rawIdKeysOpen(clock.wallMillis())) {
            // A session of an earlier release may still be under its raw id: the logout ends it there too, and
            // nothing else (the same key is another user's session when a digest comes as the cookie).
            String rawKey = writer.keyOf(sid.value());
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
        writer.unlist(session);
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
            String[] keys = ids.stream().map(writer::keyOf).toArray(String[]::new);
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

    @Override
    public String toString() {
        return "SessionStore[" + config + "]";
    }
}
