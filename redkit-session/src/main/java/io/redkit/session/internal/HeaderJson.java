package io.redkit.session.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.BiPredicate;

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

    /**
     * Reads the object in {@code bytes[0, end)}, handing each field to {@code field} as a {@link Long} or a
     * {@link String} (any other value: an {@link IllegalArgumentException}); {@code field} returns false to stop
     * reading there (a newer format met). Anything but one flat object of such fields throws
     * {@link IllegalArgumentException}.
     */
    static void read(byte[] bytes, int end, BiPredicate<String, Object> field) {
        Reader r = new Reader(new String(bytes, 0, end, StandardCharsets.UTF_8));
        r.expect('{');
        if (r.peek() == '}') {
            r.pos++;
            r.end();
            return;
        }
        while (true) {
            String name = r.string();
            r.expect(':');
            Object value = r.peek() == '"' ? r.string() : r.integer();
            if (!field.test(name, value)) {
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

    private static final class Reader {

        private final String text;
        private int pos;

        Reader(String text) {
            this.text = text;
        }

        char peek() {
            skipSpace();
            if (pos >= text.length()) {
                throw new IllegalArgumentException("unexpected end");
            }
            return text.charAt(pos);
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
            if (pos != text.length()) {
                throw new IllegalArgumentException("text after the object at " + pos);
            }
        }

        Long integer() {
            int start = pos;
            if (pos < text.length() && text.charAt(pos) == '-') {
                pos++;
            }
            while (pos < text.length() && Character.isDigit(text.charAt(pos)) && text.charAt(pos) < 128) {
                pos++;
            }
            // A float, a literal, an array or an object is not a value this header holds; parseLong refuses it.
            return Long.parseLong(text.substring(start, pos));
        }

        String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                if (pos >= text.length()) {
                    throw new IllegalArgumentException("unterminated string");
                }
                char c = text.charAt(pos++);
                if (c == '"') {
                    return out.toString();
                }
                if (c < 0x20) {
                    throw new IllegalArgumentException("control character in a string at " + (pos - 1));
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (pos >= text.length()) {
                    throw new IllegalArgumentException("unterminated escape");
                }
                char e = text.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        if (pos + 4 > text.length()) {
                            throw new IllegalArgumentException("short \\u escape");
                        }
                        out.append((char) HexFormat.fromHexDigits(text, pos, pos + 4));
                        pos += 4;
                    }
                    default -> throw new IllegalArgumentException("bad escape \\" + e);
                }
            }
        }

        private void skipSpace() {
            while (pos < text.length() && " \t\r".indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
        }
    }
}
