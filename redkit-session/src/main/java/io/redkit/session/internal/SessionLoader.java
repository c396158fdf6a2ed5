package io.redkit.session.internal;

import static io.redkit.session.internal.SessionWriter.ascii;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.redkit.ObservedOperation;
import io.redkit.RedisCommandException;
import io.redkit.session.Session;
import io.redkit.session.SessionId;
import io.redkit.session.SessionScripts;
import io.redkit.session.SessionStoreUnavailableException;

/**
 * Loads a session: one script on one key (one round trip) that renews its idle timeout, then the reply read as a
 * session, a miss, an ended one or something that is not a session. A miss while sessions of an earlier release
 * may still live under their raw id moves such a session to its digest key.
 */
final class SessionLoader<T> {

    /* Under the store's name: where the store's log lines were before they moved here. */
    private static final Logger log = LoggerFactory.getLogger(DefaultSessionStore.class);
    private static final byte[] ENDED = {'-'};
    private static final byte[] NOT_A_SESSION = {'!'};

    private static final KeyValue[] OUTCOMES = Arrays.stream(SessionMetrics.Load.values())
            .map(l -> ObservedOperation.outcome(l.name().toLowerCase(Locale.ROOT))).toArray(KeyValue[]::new);

    private final SessionRuntime<T> rt;
    private final ObservedOperation loads;
    private final RawIdUpgrade upgrade;
    private final SessionWriter<T> writer;
    private final byte[] idleMillis;

    SessionLoader(SessionRuntime<T> rt, SessionWriter<T> writer, ObservedOperation loads) {
        this.rt = rt;
        this.loads = loads;
        this.upgrade = new RawIdUpgrade(rt.config(), rt.ops(), rt.guard());
        this.writer = writer;
        this.idleMillis = ascii(rt.config().idleTimeout().toMillis());
    }

    /** Whether a session of an earlier release may still be alive under its raw id at {@code now}. */
    boolean rawIdKeysOpen(long now) {
        return upgrade.open(now);
    }

    /**
     * The session of {@code id}, its idle timeout renewed; empty when there is none to serve. Observed as {@code
     * redkit.session.load} with the result as outcome ({@code hit}, {@code miss}, {@code expired}, {@code corrupt},
     * {@code newer}); neither the id nor the user is ever a key value.
     */
    Optional<Session<T>> load(SessionId id) {
        Objects.requireNonNull(id, "id");
        return loads.active() ? loads.observe(o -> load(id, o), v -> null) : load(id, Observation.NOOP);
    }

    private Optional<Session<T>> load(SessionId id, Observation observation) {
        long start = rt.clock().nanoTime();
        String key = writer.key(id);
        byte[] reply = rt.guard().run("load", key, () -> touch(key));
        if (reply == null && upgrade.open(rt.clock().wallMillis())) {
            return upgraded(id, start, observation);
        }
        return read(id, key, reply, start, observation);
    }

    private Optional<Session<T>> read(SessionId id, String key, byte[] reply, long start, Observation observation) {
        if (reply == null) {
            return loaded(SessionMetrics.Load.MISS, start, id, observation);
        }
        if (Arrays.equals(reply, ENDED)) {
            return loaded(SessionMetrics.Load.EXPIRED, start, id, observation);
        }
        if (Arrays.equals(reply, NOT_A_SESSION)) {
            return loaded(SessionMetrics.Load.CORRUPT, start, id, observation);
        }
        SessionCoder.Read<T> read = rt.coder().decode(id, reply);
        switch (read.status()) {
            case VALID -> {
                return served(read.session(), start, observation);
            }
            case NEWER -> {
                return loaded(SessionMetrics.Load.NEWER, start, id, observation);
            }
            default -> {
                // Not this id's session in a form we know: end it rather than serve a guess.
                rt.guard().run("end unreadable session", key, () -> rt.ops().delete(key));
                return loaded(SessionMetrics.Load.CORRUPT, start, id, observation);
            }
        }
    }

    private Optional<Session<T>> served(Session<T> session, long start, Observation observation) {
        recorded(SessionMetrics.Load.HIT, start, observation);
        return Optional.of(session);
    }

    private void recorded(SessionMetrics.Load result, long start, Observation observation) {
        rt.metrics().load(result, rt.clock().nanoTime() - start);
        observation.lowCardinalityKeyValue(OUTCOMES[result.ordinal()]);
    }

    /*
     * A session an earlier release stored under its raw id, moved to its digest key: read (never renewed nor ended
     * from here: a raw-id key has the shape of a digest key, and when a digest read from Redis comes as a cookie its
     * "raw-id key" is another user's session), copied (SET NX, so two loads racing move it once), listed under its
     * digest, and only then the raw-id key ended, if it still holds exactly what was copied. A logout or an update
     * by an earlier release in between makes that refuse: the copy is taken back, so a logout is never undone.
     * Each step that fails leaves the session under keys that are listed, so a logout or revoke-all still ends it.
     */
    private Optional<Session<T>> upgraded(SessionId id, long start, Observation observation) {
        String rawKey = writer.keyOf(id.value());
        byte[] raw = rt.guard().run("load from a raw-id key", rawKey, () -> rt.ops().get(rawKey).orElse(null));
        SessionCoder.Read<T> found = raw == null || !Envelope.isFirstFormat(raw) ? null : rt.coder().decode(id, raw);
        if (found == null || found.status() != Envelope.Status.VALID) {
            return loaded(SessionMetrics.Load.MISS, start, id, observation);
        }
        Session<T> s = found.session();
        long now = rt.clock().wallMillis();
        long ttl = writer.ttlMillis(s, now);
        if (ttl <= 0) {
            return loaded(SessionMetrics.Load.EXPIRED, start, id, observation);
        }
        String key = writer.key(id);
        if (!rt.guard().run("upgrade: copy to the digest key", key,
                () -> rt.ops().setIfAbsent(key, raw, Duration.ofMillis(ttl)))) {
            // a racing load moved it
            return read(id, key, rt.guard().run("load", key, () -> touch(key)), start, observation);
        }
        try {
            rt.guard().run("upgrade: list the digest", rt.index().key(s.userId()), () -> {
                rt.index().add(s.userId(), id.digest(), s.absoluteExpiry().toEpochMilli(), now);
                return null;
            });
        } catch (SessionStoreUnavailableException e) {
            Guard.bestEffort(() -> rt.ops().delete(key), e);
            throw e;
        }
        long retired = rt.guard().run("upgrade: end the raw-id key", rawKey,
                () -> rt.ops().eval(SessionScripts.RETIRE_RAW, List.of(rawKey), ascii(Envelope.fingerprint(id)), raw));
        if (retired != 1) {
            rt.guard().run("upgrade: take back the copy", null, () -> writer.discard(s));
            return loaded(SessionMetrics.Load.MISS, start, id, observation);
        }
        writer.unlist(s.userId(), id.value());
        rt.metrics().upgraded();
        return served(s, start, observation);
    }

    private byte[] touch(String key) {
        try {
            return rt.ops().eval(SessionScripts.TOUCH, List.of(key), ascii(rt.clock().wallMillis()), idleMillis);
        } catch (RedisCommandException e) {
            if (!isWrongType(e)) {
                throw e;
            }
            // Something that is not a string under a session key: not a session, and not an outage either.
            rt.ops().delete(key);
            return NOT_A_SESSION;
        }
    }

    private Optional<Session<T>> loaded(SessionMetrics.Load result, long start, SessionId id,
            Observation observation) {
        recorded(result, start, observation);
        if (result == SessionMetrics.Load.CORRUPT) {
            log.warn("store '{}': session {} was not readable as a session and has been ended",
                    rt.config().namespace(), id.shortForm());
        }
        return Optional.empty();
    }

    private static boolean isWrongType(RedisCommandException e) {
        return "WRONGTYPE".equals(e.errorCode()) || String.valueOf(e.getMessage()).contains("WRONGTYPE");
    }
}
