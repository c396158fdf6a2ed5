package io.redkit.cache.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The bytes of a cache entry: an 18-byte header, then the codec's payload (JSON by default), deflated when large.
 * Another language reads it with a fixed layout (big-endian):
 *
 * <pre>
 *  0  2  magic "rk"
 *  2  1  envelope format (1)
 *  3  1  flags: 0x01 "not found" marker (no payload), 0x02 payload deflated (RFC 1951, zlib wrapper)
 *  4  2  value schema version (unsigned)
 *  6  8  logical expiry, Unix epoch milliseconds (XFetch)
 * 14  4  recompute time of the value, milliseconds (XFetch's delta)
 * 18  …  payload
 * </pre>
 *
 * XFetch's inputs live here so that a hit needs no PTTL: one GET and a decode.
 */
public final class Envelope {

    static final int HEADER = 18;
    private static final byte M0 = 'r';
    private static final byte M1 = 'k';
    private static final byte FORMAT = 1;
    private static final int NOT_FOUND = 0x01;
    private static final int DEFLATED = 0x02;
    /**
     * The largest payload redkit writes or inflates. A compressed payload that would inflate beyond it is corrupt
     * (a miss, reloaded and overwritten), never an OutOfMemoryError: memory is bounded by this, not by what the
     * entry claims. The encoder refuses (skips or fails) a payload above it, so nothing redkit wrote is refused.
     */
    public static final int MAX_PAYLOAD = 64 << 20;
    private static final int CHUNK = 64 << 10;

    /** What a stored entry turned out to be. */
    public enum Status { VALUE, NOT_FOUND, CORRUPT, OTHER_VERSION }

    /**
     * A decoded entry. A VALUE's payload, inflated already, is {@code length} bytes of {@code source} from {@code
     * offset}: the entry's own array when it was stored as is, so that a hit decodes it where it lies instead of
     * copying it first (the copy was 12% of a batch read's CPU on {@code bench cache}). Null unless VALUE.
     */
    public record Decoded(Status status, long expiresAtMillis, int recomputeMillis, byte[] source, int offset,
            int length) {

        static final Decoded CORRUPT = new Decoded(Status.CORRUPT, 0, 0, null, 0, 0);
        static final Decoded OTHER_VERSION = new Decoded(Status.OTHER_VERSION, 0, 0, null, 0, 0);

        /** Whether the entry answers the read (a value or a "not found" marker). */
        public boolean usable() {
            return status == Status.VALUE || status == Status.NOT_FOUND;
        }

        /** The payload in an array of its own (a copy); null unless VALUE. */
        public byte[] payload() {
            return source == null ? null : Arrays.copyOfRange(source, offset, offset + length);
        }
    }

    /** An encoded entry and whether its payload was compressed. */
    public record Encoded(byte[] bytes, boolean compressed) {
    }

    private Envelope() {
    }

    /** Encodes a value's payload; deflates it when longer than {@code compressAbove} and smaller that way. */
    public static Encoded value(int version, long expiresAtMillis, int recomputeMillis, byte[] payload,
            int compressAbove) {
        if (payload.length > compressAbove) {
            byte[] deflated = deflate(payload);
            if (deflated.length < payload.length) {
                return new Encoded(write(DEFLATED, version, expiresAtMillis, recomputeMillis, deflated), true);
            }
        }
        return new Encoded(write(0, version, expiresAtMillis, recomputeMillis, payload), false);
    }

    /** Encodes a "not found" marker. */
    public static byte[] notFound(int version, long expiresAtMillis, int recomputeMillis) {
        return write(NOT_FOUND, version, expiresAtMillis, recomputeMillis, new byte[0]);
    }

    /** Decodes an entry written by any release: another format or schema version is a miss, never an error. */
    public static Decoded decode(byte[] bytes, int expectedVersion) {
        if (bytes == null || bytes.length < HEADER || bytes[0] != M0 || bytes[1] != M1 || bytes[2] != FORMAT) {
            return Decoded.CORRUPT;
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int flags = in.get(3);
        int version = Short.toUnsignedInt(in.getShort(4));
        long expires = in.getLong(6);
        int recompute = in.getInt(14);
        if (version != expectedVersion) {
            return Decoded.OTHER_VERSION;
        }
        if ((flags & NOT_FOUND) != 0) {
            return new Decoded(Status.NOT_FOUND, expires, recompute, null, 0, 0);
        }
        if ((flags & DEFLATED) == 0) {
            return new Decoded(Status.VALUE, expires, recompute, bytes, HEADER, bytes.length - HEADER);
        }
        byte[] payload = inflate(bytes, HEADER, bytes.length - HEADER);
        return payload == null ? Decoded.CORRUPT : new Decoded(Status.VALUE, expires, recompute, payload, 0,
                payload.length);
    }

    private static byte[] write(int flags, int version, long expiresAtMillis, int recomputeMillis, byte[] payload) {
        ByteBuffer out = ByteBuffer.allocate(HEADER + payload.length);
        out.put(M0).put(M1).put(FORMAT).put((byte) flags).putShort((short) version).putLong(expiresAtMillis)
                .putInt(recomputeMillis).put(payload);
        return out.array();
    }

    private static byte[] deflate(byte[] input) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            deflater.setInput(input);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, input.length / 4));
            byte[] buffer = new byte[8192];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /*
     * Two passes: the first inflates into a small scratch buffer only to count, and stops at MAX_PAYLOAD; the
     * second inflates into an array of exactly that size. A hostile entry then costs a scratch buffer, never a
     * large array: the old code allocated four times the input up front (a 40 MB entry asked for 160 MB), and
     * even a capped growing buffer let a few concurrent readers of one small deflate bomb run a heap dry.
     */
    private static byte[] inflate(byte[] input, int offset, int length) {
        long size = inflatedSize(input, offset, length);
        if (size < 0) {
            return null;
        }
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(input, offset, length);
            byte[] out = new byte[(int) size];
            int done = 0;
            while (done < out.length) {
                int n = inflater.inflate(out, done, out.length - done);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    return null;
                }
                done += n;
            }
            return out;
        } catch (DataFormatException e) {
            return null;
        } finally {
            inflater.end();
        }
    }

    /** The inflated size of a complete deflate stream, or -1 when it is corrupt or above {@link #MAX_PAYLOAD}. */
    private static long inflatedSize(byte[] input, int offset, int length) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(input, offset, length);
            byte[] scratch = new byte[CHUNK];
            long size = 0;
            while (!inflater.finished()) {
                int n = inflater.inflate(scratch);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    return -1;
                }
                size += n;
                if (size > MAX_PAYLOAD) {
                    return -1;
                }
            }
            return size;
        } catch (DataFormatException e) {
            return -1;
        } finally {
            inflater.end();
        }
    }
}
