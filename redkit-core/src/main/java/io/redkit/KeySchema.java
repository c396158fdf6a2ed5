package io.redkit;

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
 * {@code %XX}; other characters, non-ASCII included, stay as they are (UTF-8). A lone surrogate, which UTF-8
 * cannot carry (Lettuce would send {@code ?}, merging it with every other lone surrogate and making it a glob),
 * becomes the {@code %XX%XX%XX} of its three-byte generalized UTF-8 (WTF-8) form, U+D800 as
 * {@code %ED%A0%80}: only ASCII is ever escaped otherwise, and real UTF-8 never holds {@code ED A0..BF}, so no
 * two inputs share a key, byte for byte. An empty part is written {@code %} so that a hash tag is never empty (an
 * empty tag would hash the whole key).
 */
public final class KeySchema {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** ASCII escaped in a key part: controls, DEL, space, {@code % { } : * ? [ ] \}; a table, as every key pays it. */
    private static final boolean[] PART_ESCAPES = escapes(" %{}:*?[]\\");
    /** ASCII escaped in a name ({@link #nameKey}): as in a part, but for {@code :} and space. */
    private static final boolean[] NAME_ESCAPES = escapes("%{}*?[]\\");

    private final String namespace;
    private final String open;

    private KeySchema(String namespace) {
        this.namespace = namespace;
        this.open = namespace + ":{";
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
        if (parts.length == 1 && isPlain(parts[0], PART_ESCAPES)) {
            return open + parts[0] + '}';
        }
        // Sized for the parts unescaped (ids mostly are): a session id's key outgrew a fixed guess and was copied.
        int length = namespace.length() + 2 + parts.length;
        for (String part : parts) {
            length += part == null ? 0 : part.length();
        }
        StringBuilder sb = new StringBuilder(length).append(namespace).append(":{");
        appendParts(sb, parts);
        return sb.append('}').toString();
    }

    /**
     * {@link #key(String...)} of a list of parts. A single part that needs no escaping (a cache's id, from its
     * {@code keyParts} list) is not copied into an array first.
     */
    public String key(List<String> parts) {
        if (parts != null && parts.size() == 1 && isPlain(parts.get(0), PART_ESCAPES)) {
            return open + parts.get(0) + '}';
        }
        return key(parts == null ? null : parts.toArray(new String[0]));
    }

    /** A key in the same slot as {@code key}: {@code key:suffix}, the suffix escaped. */
    public String child(String key, String suffix) {
        requireOwn(key);
        StringBuilder sb = new StringBuilder(key.length() + 8).append(key).append(':');
        escapeInto(sb, suffix, PART_ESCAPES);
        return sb.toString();
    }

    /**
     * The key of an entity whose whole name is its identity, such as a lock: {@code namespace:{name}}. Inside the
     * tag only what would break it, a {@code SCAN MATCH} pattern or the escaping is escaped: {@code { } * ? [ ] \ %},
     * lone surrogates (as in {@link #escape}), and ASCII control characters, which break nothing in Redis but
     * should not reach logs and {@code redis-cli} raw. {@code :}, space and everything else stay, so
     * {@code nameKey("job:42")} is {@code lock:{job:42}}, the key a Go or Node service takes with
     * {@code SET lock:{job:42} owner NX PX ttl}. A name holding {@code %} or another escaped character is stored
     * escaped ({@code a*b} as {@code lock:{a%2Ab}}) and so differs from a naive client's key.
     *
     * <p>Distinct names give distinct keys, {@link #unescape} of the tag gives the name back, and the empty name is
     * {@code namespace:{%}}. Use either {@code key} or {@code nameKey} in one namespace, not both:
     * {@code nameKey("a:b")} is {@code key("a", "b")}.
     */
    public String nameKey(String name) {
        if (isPlain(name, NAME_ESCAPES)) {
            return open + name + '}';
        }
        StringBuilder sb = new StringBuilder(namespace.length() + 3 + (name == null ? 0 : name.length()))
                .append(namespace).append(":{");
        escapeInto(sb, name, NAME_ESCAPES);
        return sb.append('}').toString();
    }

    /**
     * A {@code SCAN MATCH} pattern for the {@link #nameKey} of every name that starts with {@code prefix}, and for
     * their children. A prefix counts code points, a lone surrogate as one: U+D83D matches a name in which
     * that half stands alone, not one where it begins a pair. The empty prefix matches the whole namespace.
     */
    public String namePattern(String prefix) {
        if (prefix == null) {
            throw new IllegalArgumentException("a name prefix must not be null (use \"\" for all names)");
        }
        StringBuilder sb = new StringBuilder(namespace).append(":{");
        if (!prefix.isEmpty()) {
            escapeInto(sb, prefix, NAME_ESCAPES);
        }
        return sb.append('*').toString();
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
        try {
            for (String raw : key.substring(prefix.length(), close).split(":", -1)) {
                parts.add(unescape(raw));
            }
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.of(parts);
    }

    /** Escapes one part (see the class comment). */
    public static String escape(String part) {
        StringBuilder sb = new StringBuilder(part == null ? 1 : part.length() + 4);
        escapeInto(sb, part, PART_ESCAPES);
        return sb.toString();
    }

    /** Reverses {@link #escape}; refuses a {@code %} form that escaping never writes. */
    public static String unescape(String escaped) {
        if ("%".equals(escaped)) {
            return "";
        }
        int first = escaped.indexOf('%');
        if (first < 0) {
            return escaped;
        }
        StringBuilder sb = new StringBuilder(escaped.length()).append(escaped, 0, first);
        for (int i = first; i < escaped.length(); ) {
            char c = escaped.charAt(i);
            if (c != '%') {
                sb.append(c);
                i++;
                continue;
            }
            int b = hexByte(escaped, i);
            if (b >= 0 && b < 0x80) {
                sb.append((char) b);
                i += 3;
                continue;
            }
            int surrogate = b == 0xED ? surrogate(escaped, i + 3) : -1;
            if (surrogate < 0) {
                throw new IllegalArgumentException("'" + escaped + "' is not an escaped key part");
            }
            sb.append((char) surrogate);
            i += 9;
        }
        return sb.toString();
    }

    private static void appendParts(StringBuilder sb, String[] parts) {
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                sb.append(':');
            }
            escapeInto(sb, parts[i], PART_ESCAPES);
        }
    }

    private static void escapeInto(StringBuilder sb, String part, boolean[] escapes) {
        if (part == null) {
            throw new IllegalArgumentException("a key part must not be null");
        }
        if (part.isEmpty()) {
            sb.append('%');
            return;
        }
        int first = 0;
        while (first < part.length() && plain(part.charAt(first), escapes)) {
            first++;
        }
        // Most parts (ids) need no escaping: one bulk append instead of one per character.
        sb.append(part, 0, first);
        for (int i = first; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c < 128 && escapes[c]) {
                appendHex(sb, c);
            } else if (Character.isHighSurrogate(c) && i + 1 < part.length()
                    && Character.isLowSurrogate(part.charAt(i + 1))) {
                sb.append(c).append(part.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                // Lone: UTF-8 has no bytes for it, so its WTF-8 bytes go escaped (see the class comment).
                appendHex(sb, 0xE0 | c >> 12);
                appendHex(sb, 0x80 | (c >> 6) & 0x3F);
                appendHex(sb, 0x80 | c & 0x3F);
            } else {
                sb.append(c);
            }
        }
    }

    /*
     * A part that needs no escaping (most ids) makes its key by concatenation, which the JDK sizes exactly: one
     * array and the string, where a builder costs a second array and a copy (issue 21: every hot path builds a key
     * per call).
     */
    private static boolean isPlain(String part, boolean[] escapes) {
        if (part == null || part.isEmpty()) {
            return false;
        }
        for (int i = 0; i < part.length(); i++) {
            if (!plain(part.charAt(i), escapes)) {
                return false;
            }
        }
        return true;
    }

    private static boolean plain(char c, boolean[] escapes) {
        return c < 128 ? !escapes[c] : !Character.isSurrogate(c);
    }

    private static boolean[] escapes(String specials) {
        boolean[] table = new boolean[128];
        for (char c = 0; c < ' '; c++) {
            table[c] = true;
        }
        table[0x7F] = true;
        for (char c : specials.toCharArray()) {
            table[c] = true;
        }
        return table;
    }

    private static void appendHex(StringBuilder sb, int b) {
        sb.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
    }

    /** The byte of the {@code %XX} at {@code i}, or -1 when there is none. */
    private static int hexByte(String s, int i) {
        if (i + 2 >= s.length() || s.charAt(i) != '%') {
            return -1;
        }
        int hi = hexDigit(s.charAt(i + 1));
        int lo = hexDigit(s.charAt(i + 2));
        return hi < 0 || lo < 0 ? -1 : hi << 4 | lo;
    }

    private static int hexDigit(char c) {
        return c < 128 ? Character.digit(c, 16) : -1;
    }

    /** The lone surrogate whose WTF-8 (after its ED) is the two {@code %XX} at {@code i}: A0..BF, 80..BF; or -1. */
    private static int surrogate(String s, int i) {
        int b2 = hexByte(s, i);
        int b3 = hexByte(s, i + 3);
        return b2 >= 0xA0 && b2 <= 0xBF && b3 >= 0x80 && b3 <= 0xBF ? 0xD000 | (b2 & 0x3F) << 6 | b3 & 0x3F : -1;
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
