package io.redkit.session.internal;

import java.time.Instant;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.redkit.session.Session;
import io.redkit.session.SessionCodec;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionId;
import io.redkit.session.SessionTooLargeException;

/** From a session to its stored bytes and back: envelope, codec and the size limit. No Redis here. */
final class SessionCoder<T> {

    private static final Logger log = LoggerFactory.getLogger(SessionCoder.class);

    /** What stored bytes were: a session, or why not (CORRUPT ends it, NEWER leaves it to a newer release). */
    record Read<T>(Envelope.Status status, Session<T> session) {
    }

    private final String store;
    private final SessionCodec<T> codec;
    private final int dataVersion;
    private final int maxBytes;

    SessionCoder(SessionConfig config, SessionCodec<T> codec) {
        this.store = config.namespace();
        this.codec = codec;
        this.dataVersion = config.dataVersion();
        this.maxBytes = config.maxSessionBytes();
    }

    /**
     * The stored bytes of a session.
     *
     * @throws SessionTooLargeException above the limit
     * @throws IllegalArgumentException when the codec cannot write {@code data}
     */
    byte[] encode(Session<T> s) {
        byte[] payload;
        try {
            payload = codec.encode(s.data());
        } catch (Exception e) {
            throw new IllegalArgumentException("store '" + store + "': session data did not encode: " + e, e);
        }
        byte[] bytes = Envelope.write(s.id(), s.userId(), s.createdAt().toEpochMilli(),
                s.absoluteExpiry().toEpochMilli(), s.revision(), dataVersion, payload);
        if (bytes.length > maxBytes) {
            throw new SessionTooLargeException(store, bytes.length, maxBytes);
        }
        return bytes;
    }

    /** The session stored under {@code id}; CORRUPT when it is not one this store can read as {@code id}'s. */
    Read<T> decode(SessionId id, byte[] bytes) {
        Envelope.Opened opened = Envelope.open(id, bytes, dataVersion);
        if (opened.status() != Envelope.Status.VALID) {
            return new Read<>(opened.status(), null);
        }
        try {
            T data = codec.decode(opened.source(), opened.payloadOffset(), opened.payloadLength());
            if (data == null) {
                return new Read<>(Envelope.Status.CORRUPT, null);
            }
            return new Read<>(Envelope.Status.VALID, new Session<>(id, opened.userId(), data,
                    Instant.ofEpochMilli(opened.createdAt()), Instant.ofEpochMilli(opened.expiresAt()),
                    opened.revision()));
        } catch (Exception e) {
            log.warn("store '{}': session {} did not decode (data version {}, ours {}); ending it: {}", store,
                    id.shortForm(), opened.dataVersion(), dataVersion, e.toString());
            return new Read<>(Envelope.Status.CORRUPT, null);
        }
    }
}
