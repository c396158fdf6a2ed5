package io.redkit.session.internal;

import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.Arrays;

import io.redkit.session.SessionId;

/**
 * The stored form of a session: one line of JSON header, a newline, then the codec's payload (JSON by default),
 * so that a service in another language splits at the first newline and reads both:
 *
 * <pre>
 * {"v":2,"exp":1767225600000,"rev":3,"iat":1767182400000,"dv":1,"sid":"Qx3…","uid":"alice"}\n{…payload…}
 * </pre>
 *
 * <ul>
 * <li>{@code v}: the format (2; 1 is still read, as revision 0). Every version starts {@code {"v":N,"exp":M}: the
 *     scripts read the absolute expiry from that prefix without parsing the rest, so it is the one part a newer
 *     format may not move.</li>
 * <li>{@code rev}: the revision, one more with every update; the update script writes only over the revision the
 *     caller read, and the rotation script deletes the old key only if it still holds the revision copied.</li>
 * <li>{@code exp}, {@code iat}: absolute expiry and creation, Unix epoch milliseconds (wall clock of the writer).</li>
 * <li>{@code dv}: the data's shape version ({@code SessionConfig.dataVersion}).</li>
 * <li>{@code sid}: 16 characters of base64url of SHA-256 of the id: a value copied under another id (a restore
 *     mix-up, a bug) does not match and is refused, so a key never serves another session's data.</li>
 * <li>{@code uid}: the user id, always the last field (the update script compares it as the header's tail).</li>
 * </ul>
 */
final class Envelope {

    /** The format this release writes; it reads this one and {@link #FIRST_FORMAT}. */
    static final int FORMAT = 2;
    /** The first format: no revision (read as 0). */
    static final int FIRST_FORMAT = 1;
    private static final int FINGERPRINT_CHARS = 16;

    /** What stored bytes turned out to be. */
    enum Status { VALID, CORRUPT, NEWER }

    /**
     * An opened envelope. The payload is not copied out: it is {@code source} from {@code payloadOffset} to its end,
     * the array Redis answered, for the codec to read in place; {@code source} is null unless VALID.
     */
    record Opened(Status status, long expiresAt, long createdAt, long revision, int dataVersion, String userId,
            byte[] source, int payloadOffset) {

        static final Opened CORRUPT = new Opened(Status.CORRUPT, 0, 0, 0, 0, null, null, 0);
        static final Opened NEWER = new Opened(Status.NEWER, 0, 0, 0, 0, null, null, 0);

        int payloadLength() {
            return source.length - payloadOffset;
        }
    }

    private Envelope() {
    }

    /** The stored bytes of a session. */
    static byte[] write(SessionId id, String userId, long createdAt, long expiresAt, long revision, int dataVersion,
            byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(160 + userId.length() + payload.length);
        HeaderJson.number(out, "v", FORMAT);
        HeaderJson.number(out, "exp", expiresAt);
        HeaderJson.number(out, "rev", revision);
        HeaderJson.number(out, "iat", createdAt);
        HeaderJson.number(out, "dv", dataVersion);
        HeaderJson.string(out, "sid", fingerprint(id));
        HeaderJson.string(out, "uid", userId);
        out.write('}');
        out.write('\n');
        out.writeBytes(payload);
        return out.toByteArray();
    }

    /**
     * Opens what the key of {@code id} held: CORRUPT when it is not a session of {@code id}, NEWER when a newer
     * release wrote it (a format or data version above ours), else VALID with its payload.
     */
    static Opened open(SessionId id, byte[] bytes, int ourDataVersion) {
        int newline = indexOf(bytes, (byte) '\n');
        if (newline < 0) {
            return Opened.CORRUPT;
        }
        Fields f = new Fields();
        try {
            HeaderJson.read(bytes, newline, Fields.NAMES, f);
        } catch (IllegalArgumentException e) {
            return Opened.CORRUPT;
        }
        if (f.format > FORMAT) {
            return Opened.NEWER;
        }
        if (f.format < FIRST_FORMAT || f.exp < 0 || f.iat < 0 || f.rev < 0 || f.dv < 0 || f.sid == null
                || f.uid == null) {
            return Opened.CORRUPT;
        }
        if (!isFingerprintOf(f.sid, id)) {
            return Opened.CORRUPT;
        }
        if (f.dv > ourDataVersion) {
            return Opened.NEWER;
        }
        return new Opened(Status.VALID, f.exp, f.iat, f.rev, f.dv, f.uid, bytes, newline + 1);
    }

    /** Whether stored bytes are in the first format (written before revisions, under the raw id). */
    static boolean isFirstFormat(byte[] bytes) {
        byte[] prefix = {'{', '"', 'v', '"', ':', '1', ','};
        return bytes.length > prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** 16 characters of base64url of SHA-256 of the id (its digest's first 12 bytes): binds a value to its id. */
    static String fingerprint(SessionId id) {
        return id.digest().substring(0, FINGERPRINT_CHARS);
    }

    /**
     * Whether {@code sid} is the fingerprint of {@code id}, compared in constant time as {@link MessageDigest#isEqual}
     * does (a length apart answers at once), without building the fingerprint nor the bytes of either.
     */
    private static boolean isFingerprintOf(String sid, SessionId id) {
        if (sid.length() != FINGERPRINT_CHARS) {
            return false;
        }
        String digest = id.digest();
        int difference = 0;
        for (int i = 0; i < FINGERPRINT_CHARS; i++) {
            difference |= sid.charAt(i) ^ digest.charAt(i);
        }
        return difference == 0;
    }

    /** The header's fields as read; -1 or null where absent or of the wrong kind. */
    private static final class Fields implements HeaderJson.Fields {

        /** The names this release knows: read without a string each. */
        static final String[] NAMES = {"v", "exp", "rev", "iat", "dv", "sid", "uid"};

        int format = -1;
        long exp = -1;
        long iat = -1;
        long rev;
        int dv = -1;
        String sid;
        String uid;

        @Override
        public boolean number(String name, long value) {
            return take(name, value, null);
        }

        @Override
        public boolean string(String name, String value) {
            return take(name, -1, value);
        }

        /** Takes one field; stops at a format above ours, whose other fields this release cannot know. */
        private boolean take(String name, long number, String text) {
            switch (name) {
                case "v" -> format = number > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) number;
                case "exp" -> exp = number;
                case "iat" -> iat = number;
                case "rev" -> rev = number;
                case "dv" -> dv = number > Integer.MAX_VALUE ? -1 : (int) number;
                case "sid" -> sid = text;
                case "uid" -> uid = text;
                default -> {
                    // a field of a later format: ignored
                }
            }
            return format <= FORMAT;
        }
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
