package io.redkit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds every key redkit writes: {@code namespace:{part:part}[:child]}. The braces are a Cluster hash tag, so
 * an entity's keys ({@code lock:{job:42}}, {@code lock:{job:42}:fence}) share a slot and one script can touch
 * them all. User-supplied parts are escaped so that they can neither move the key to another slot
 * ({@code { }}), pose as another entity ({@code :}), nor act as a glob in {@code SCAN MATCH} ({@code * ? [ ] \}).
 *
 * <p>Escaping is percent-style: {@code %}, the characters above, space and control characters become
 * {@code %XX}; other characters, non-ASCII included, stay as they are (UTF-8). An empty part is written
 * {@code %} so that a hash tag is never empty (an empty tag would hash the whole key).
 */
public final class KeySchema {

    private static final String SPECIAL = "%{}:*?[]\\";
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** ASCII characters that are escaped: controls, space, DEL and {@link #SPECIAL}; a table, as every key pays it. */
    private static final boolean[] ESCAPED = new boolean[128];

    static {
        for (char c = 0; c <= ' '; c++) {
            ESCAPED[c] = true;
        }
        ESCAPED[0x7F] = true;
        for (char c : SPECIAL.toCharArray()) {
            ESCAPED[c] = true;
        }
    }

    private final String namespace;

    private KeySchema(String namespace) {
        this.namespace = namespace;
    }

    /**
     * A schema for one namespace, e.g. {@code lock}, {@code cache.product}; letters, digits, {@code . _ -} only,
     * so that the namespace itself never needs escaping.
     */
    public static KeySchema of(String namespace) {
        if (namespace == null || !namespace.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new IllegalArgumentException(
                    "namespace must be 1-64 of [A-Za-z0-9_.-], was '" + namespace + "'");
        }
        return new KeySchema(namespace);
    }

    /** The namespace. */
    public String namespace() {
        return namespace;
    }

    /** The key of an entity: {@code namespace:{p1:p2…}}, every part escaped. At least one part. */
    public String key(String... parts) {
        if (parts == null || parts.length == 0) {
            throw new IllegalArgumentException("a key needs at least one part");
        }
        StringBuilder sb = new StringBuilder(namespace.length() + 16).append(namespace).append(":{");
        appendParts(sb, parts);
        return sb.append('}').toString();
    }

    /** A key in the same slot as {@code key}: {@code key:suffix}, the suffix escaped. */
    public String child(String key, String suffix) {
        requireOwn(key);
        StringBuilder sb = new StringBuilder(key.length() + 8).append(key).append(':');
        escapeInto(sb, suffix);
        return sb.toString();
    }

    /**
     * A {@code SCAN MATCH} pattern for every key of this namespace whose leading parts are {@code prefixParts}
     * (none: the whole namespace). Parts are escaped, so a {@code *} in them matches only a literal {@code *}.
     */
    public String pattern(String... prefixParts) {
        StringBuilder sb = new StringBuilder(namespace).append(":{");
        if (prefixParts != null && prefixParts.length > 0) {
            appendParts(sb, prefixParts);
            // Keys whose tag is exactly these parts, or that continue with further parts.
            return sb.append("[}:]*").toString();
        }
        return sb.append('*').toString();
    }

    /** The parts of a key built by this schema, unescaped; empty for a key of another namespace or shape. */
    public Optional<List<String>> parts(String key) {
        String prefix = namespace + ":{";
        if (key == null || !key.startsWith(prefix)) {
            return Optional.empty();
        }
        int close = key.indexOf('}', prefix.length());
        if (close < 0) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        for (String raw : key.substring(prefix.length(), close).split(":", -1)) {
            parts.add(unescape(raw));
        }
        return Optional.of(parts);
    }

    /** Escapes one part (see the class comment). */
    public static String escape(String part) {
        StringBuilder sb = new StringBuilder(part == null ? 1 : part.length() + 4);
        escapeInto(sb, part);
        return sb.toString();
    }

    /** Reverses {@link #escape}. */
    public static String unescape(String escaped) {
        if ("%".equals(escaped)) {
            return "";
        }
        if (escaped.indexOf('%') < 0) {
            return escaped;
        }
        byte[] utf8 = escaped.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(utf8.length);
        for (int i = 0; i < utf8.length; i++) {
            if (utf8[i] != '%') {
                out.write(utf8[i]);
                continue;
            }
            int hi = i + 2 < utf8.length ? Character.digit(utf8[i + 1], 16) : -1;
            int lo = hi >= 0 ? Character.digit(utf8[i + 2], 16) : -1;
            if (lo < 0) {
                throw new IllegalArgumentException("'" + escaped + "' is not an escaped key part");
            }
            out.write(hi * 16 + lo);
            i += 2;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void appendParts(StringBuilder sb, String[] parts) {
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                sb.append(':');
            }
            escapeInto(sb, parts[i]);
        }
    }

    private static void escapeInto(StringBuilder sb, String part) {
        if (part == null) {
            throw new IllegalArgumentException("a key part must not be null");
        }
        if (part.isEmpty()) {
            sb.append('%');
            return;
        }
        int first = 0;
        while (first < part.length() && !escaped(part.charAt(first))) {
            first++;
        }
        // Most parts (ids) need no escaping: one bulk append instead of one per character.
        sb.append(part, 0, first);
        for (int i = first; i < part.length(); i++) {
            char c = part.charAt(i);
            if (escaped(c)) {
                sb.append('%').append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
            } else {
                sb.append(c);
            }
        }
    }

    private static boolean escaped(char c) {
        return c < 128 && ESCAPED[c];
    }

    private void requireOwn(String key) {
        if (key == null || !key.startsWith(namespace + ":{") || key.indexOf('}') < 0) {
            throw new IllegalArgumentException("'" + key + "' is not a key of namespace '" + namespace + "'");
        }
    }

    @Override
    public String toString() {
        return "KeySchema[" + namespace + "]";
    }
}
