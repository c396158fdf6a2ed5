package io.redkit.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * A session id: 32 bytes from one shared {@link SecureRandom}, written as 43 characters of unpadded base64url
 * ({@code A-Z a-z 0-9 - _}), the form a cookie carries. 256 random bits cannot be guessed, and the alphabet needs no
 * escaping in a cookie or a header. Redis never sees it: the store keys a session by its {@link #digest()}.
 *
 * <p>{@link #parse} accepts exactly that form and nothing else: a wrong length, another alphabet (standard
 * base64's {@code + /}, padding {@code =}, spaces, non-ASCII), or a last character with unused bits set (a second
 * spelling of the same bytes) are refused before anything reaches Redis. {@link #toString()} shows a short
 * prefix only, so that an id logged by mistake cannot be replayed.
 */
public final class SessionId {

    /** Characters of the text form: 32 bytes in unpadded base64url. */
    public static final int LENGTH = 43;
    /** Random bytes in an id. */
    public static final int BYTES = 32;
    /** Characters {@link #toString()} and log lines show. */
    static final int SHOWN = 6;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final byte[] VALUES = alphabet();
    /* One per thread: a load digests the id of every request, and getInstance looks up and builds one each call. */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(SessionId::newSha256);

    private final String value;
    // Computed on first use; a race computes the same string twice.
    private String digest;

    private SessionId(String value) {
        this.value = value;
    }

    /**
     * A fresh id from the process's shared {@link SecureRandom}. One instance for the process: seeding a new one
     * per call would cost a read of the entropy source each time and add nothing.
     */
    public static SessionId generate() {
        byte[] bytes = new byte[BYTES];
        RANDOM.nextBytes(bytes);
        return new SessionId(ENCODER.encodeToString(bytes));
    }

    /**
     * The id a cookie carried.
     *
     * @throws InvalidSessionIdException when {@code text} is not exactly an id's form
     */
    public static SessionId parse(String text) {
        InvalidSessionIdException.Reason reason = check(text);
        if (reason != null) {
            throw new InvalidSessionIdException(reason, text == null ? -1 : text.length());
        }
        return new SessionId(text);
    }

    /** {@link #parse} that answers empty instead of throwing: a cookie that is not an id is no session. */
    public static Optional<SessionId> tryParse(String text) {
        return check(text) == null ? Optional.of(new SessionId(text)) : Optional.empty();
    }

    /** Why {@code text} is not an id, or null when it is one. Looks at no more than 43 characters. */
    static InvalidSessionIdException.Reason check(String text) {
        if (text == null) {
            return InvalidSessionIdException.Reason.NULL;
        }
        if (text.length() != LENGTH) {
            return InvalidSessionIdException.Reason.LENGTH;
        }
        for (int i = 0; i < LENGTH; i++) {
            char c = text.charAt(i);
            if (c >= 128 || VALUES[c] < 0) {
                return InvalidSessionIdException.Reason.ALPHABET;
            }
        }
        // 43 characters carry 258 bits for 256: the last one's two low bits are unused and must be zero, or two
        // spellings would name the same bytes (and two keys one session).
        if ((VALUES[text.charAt(LENGTH - 1)] & 0b11) != 0) {
            return InvalidSessionIdException.Reason.NOT_CANONICAL;
        }
        return null;
    }

    /** The full id, for the cookie; never log it, never send it to Redis. */
    public String value() {
        return value;
    }

    /**
     * What Redis holds in the id's place, in the session's key and its user's index: SHA-256 of the id in
     * unpadded base64url (43 characters). Nothing read from Redis is then a usable cookie: a digest given as a
     * cookie is hashed again and names no session, and 256 random bits cannot be found from their hash.
     */
    public String digest() {
        String d = digest;
        if (d == null) {
            d = ENCODER.encodeToString(sha256(value));
            digest = d;
        }
        return d;
    }

    private static byte[] sha256(String text) {
        // digest() resets it, so the next id on this thread starts clean.
        return SHA_256.get().digest(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** The first characters, enough to tell ids apart in logs and nothing to replay (36 of 256 bits). */
    public String shortForm() {
        return value.substring(0, SHOWN) + "…";
    }

    /** Compares in constant time, so that timing does not tell how much of a guessed id was right. */
    @Override
    public boolean equals(Object o) {
        return o instanceof SessionId other && MessageDigest.isEqual(value.getBytes(StandardCharsets.US_ASCII),
                other.value.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    /** A short prefix only (see {@link #shortForm()}). */
    @Override
    public String toString() {
        return "SessionId[" + shortForm() + "]";
    }

    private static byte[] alphabet() {
        byte[] values = new byte[128];
        java.util.Arrays.fill(values, (byte) -1);
        String chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        for (int i = 0; i < chars.length(); i++) {
            values[chars.charAt(i)] = (byte) i;
        }
        return values;
    }
}
