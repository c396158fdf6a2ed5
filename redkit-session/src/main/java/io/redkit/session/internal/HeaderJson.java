package io.redkit.session.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The JSON of the envelope's header line: one flat object of integers and strings. Written by hand, not with
 * Jackson, because the header is read and written whatever codec the application gives (its own, or Jackson 2 or
 * 3 through {@code io.redkit.json.Json}), and a session store must not force either Jackson on an application
 * that brings its own codec; the grammar needed is this small one, and {@code EnvelopeTest} pins it.
 */
final class HeaderJson {

    private HeaderJson() {
    }

    /** Appends {@code "name":value}, with a leading comma unless it is the first field. */
    static void number(ByteArrayOutputStream out, String name, long value) {
        name(out, name);
        out.writeBytes(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
    }

    /** Appends {@code "name":"value"}, the value escaped as JSON requires (RFC 8259 section 7). */
    static void string(ByteArrayOutputStream out, String name, String value) {
        name(out, name);
        out.write('"');
        StringBuilder escaped = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> escaped.append("\\\"");
                case '\\' -> escaped.append("\\\\");
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                case '\b' -> escaped.append("\\b");
                case '\f' -> escaped.append("\\f");
                default -> {
                    if (c < 0x20) {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        out.writeBytes(escaped.toString().getBytes(StandardCharsets.UTF_8));
        out.write('"');
    }

    private static void name(ByteArrayOutputStream out, String name) {
        out.write(out.size() == 0 ? '{' : ',');
        out.write('"');
        out.writeBytes(name.getBytes(StandardCharsets.US_ASCII));
        out.write('"');
        out.write(':');
    }

    /** Receives the header's fields as {@link #read} meets them; each returns false to stop reading there. */
    interface Fields {

        boolean number(String name, long value);

        boolean string(String name, String value);
    }

    /**
     * Reads the object in {@code bytes[0, end)}, handing each field to {@code fields} as a number or a string (any
     * other value: an {@link IllegalArgumentException}); a callback that returns false stops reading there (a newer
     * format met). Anything but one flat object of such fields throws {@link IllegalArgumentException}. Reads the
     * bytes in place: a load reads a header per call, so it makes no copy of it, no box per number and no string
     * for a field name it knows ({@code known}).
     */
    static void read(byte[] bytes, int end, String[] known, Fields fields) {
        Reader r = new Reader(bytes, end);
        r.expect('{');
        if (r.peek() == '}') {
            r.pos++;
            r.end();
            return;
        }
        while (true) {
            String name = r.string(known);
            r.expect(':');
            boolean more = r.peek() == '"' ? fields.string(name, r.string(null)) : fields.number(name, r.integer());
            if (!more) {
                return;
            }
            char next = r.next();
            if (next == '}') {
                r.end();
                return;
            }
            if (next != ',') {
                throw new IllegalArgumentException("expected , or } at " + (r.pos - 1));
            }
        }
    }

    /** Over {@code bytes[0, end)}: the structure is ASCII; a string's other bytes are UTF-8, decoded as such. */
    private static final class Reader {

        private final byte[] bytes;
        private final int end;
        private int pos;

        Reader(byte[] bytes, int end) {
            this.bytes = bytes;
            this.end = end;
        }

        char peek() {
            skipSpace();
            if (pos >= end) {
                throw new IllegalArgumentException("unexpected end");
            }
            return (char) (bytes[pos] & 0xff);
        }

        char next() {
            char c = peek();
            pos++;
            return c;
        }

        void expect(char c) {
            if (next() != c) {
                throw new IllegalArgumentException("expected " + c + " at " + (pos - 1));
            }
        }

        void end() {
            skipSpace();
            if (pos != end) {
                throw new IllegalArgumentException("text after the object at " + pos);
            }
        }

        /** An optional minus and ASCII digits, in range of a long; a float, a literal or anything else refused. */
        long integer() {
            boolean negative = pos < end && bytes[pos] == '-';
            if (negative) {
                pos++;
            }
            int digits = pos;
            long value = 0;
            try {
                // Summed negative, as Long.parseLong does, so that Long.MIN_VALUE is in range.
                while (pos < end && bytes[pos] >= '0' && bytes[pos] <= '9') {
                    value = Math.subtractExact(Math.multiplyExact(value, 10), bytes[pos] - '0');
                    pos++;
                }
                if (pos == digits) {
                    throw new IllegalArgumentException("expected a number at " + digits);
                }
                return negative ? value : Math.negateExact(value);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("number out of range at " + digits, e);
            }
        }

        /** A string; one of {@code known} (may be null) instead of a new one when it spells it without escapes. */
        String string(String[] known) {
            expect('"');
            int from = pos;
            while (plain()) {
                pos++;
            }
            if (pos < end && bytes[pos] == '"') {
                pos++;
                return knownOr(known, from, pos - 1);
            }
            StringBuilder out = new StringBuilder(new String(bytes, from, pos - from, StandardCharsets.UTF_8));
            while (true) {
                if (pos >= end) {
                    throw new IllegalArgumentException("unterminated string");
                }
                int run = pos;
                while (plain()) {
                    pos++;
                }
                out.append(new String(bytes, run, pos - run, StandardCharsets.UTF_8));
                if (pos >= end) {
                    throw new IllegalArgumentException("unterminated string");
                }
                byte c = bytes[pos++];
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    throw new IllegalArgumentException("control character in a string at " + (pos - 1));
                }
                escape(out);
            }
        }

        private void escape(StringBuilder out) {
            if (pos >= end) {
                throw new IllegalArgumentException("unterminated escape");
            }
            char e = (char) (bytes[pos++] & 0xff);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (pos + 4 > end) {
                        throw new IllegalArgumentException("short \\u escape");
                    }
                    int c = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = bytes[pos + i] & 0xff;
                        if (!HexFormat.isHexDigit(digit)) {
                            throw new IllegalArgumentException("bad \\u escape at " + pos);
                        }
                        c = (c << 4) | HexFormat.fromHexDigit(digit);
                    }
                    out.append((char) c);
                    pos += 4;
                }
                default -> throw new IllegalArgumentException("bad escape \\" + e);
            }
        }

        /** Whether the byte at {@code pos} is a string's own: not its end, an escape or a control character. */
        private boolean plain() {
            return pos < end && bytes[pos] != '"' && bytes[pos] != '\\' && (bytes[pos] & 0xff) >= 0x20;
        }

        private String knownOr(String[] known, int from, int to) {
            if (known != null) {
                for (String k : known) {
                    if (spells(k, from, to)) {
                        return k;
                    }
                }
            }
            return new String(bytes, from, to - from, StandardCharsets.UTF_8);
        }

        private boolean spells(String k, int from, int to) {
            if (k.length() != to - from) {
                return false;
            }
            for (int i = 0; i < k.length(); i++) {
                if (bytes[from + i] != k.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        private void skipSpace() {
            while (pos < end && (bytes[pos] == ' ' || bytes[pos] == '\t' || bytes[pos] == '\r')) {
                pos++;
            }
        }
    }
}
