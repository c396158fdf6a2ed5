package io.redkit;

import static io.redkit.RedisGlob.hashTag;
import static io.redkit.RedisGlob.wire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * Random strings of everything that has broken keys before (glob and tag characters, {@code %}, controls, letters
 * of every plane, lone surrogates), checked on the bytes Redis receives: distinct inputs give distinct keys, the
 * hash tag is exactly the escaped input, and SCAN MATCH patterns select exactly the keys they promise.
 */
class KeySchemaPropertyTest {

    private static final int RUNS = 200_000;
    private static final String ASCII_SPECIALS = "{}:*?[]\\% ";
    private static final String GLOB_AND_TAG = "{}*?[]\\";
    private static final KeySchema SCHEMA = KeySchema.of("cache.product");

    @Test
    void distinctPartsGiveDistinctKeyBytesWithTheEscapedPartsAsHashTag() {
        Random random = new Random(12);
        Map<String, List<String>> partsByKey = new HashMap<>();
        for (int i = 0; i < RUNS; i++) {
            List<String> parts = new ArrayList<>();
            for (int n = 1 + random.nextInt(3); n > 0; n--) {
                parts.add(randomString(random));
            }
            String key = SCHEMA.key(parts.toArray(String[]::new));
            byte[] bytes = strictUtf8(key);
            checkDistinctOnTheWire(partsByKey, parts, key, bytes, random);
            String escaped = parts.stream().map(KeySchema::escape).collect(Collectors.joining(":"));
            check(Arrays.equals(hashTag(bytes), strictUtf8(escaped)), key, () -> "hash tag is not " + escaped);
            check(SCHEMA.parts(key).equals(Optional.of(parts)), key, () -> "parts are " + SCHEMA.parts(key));
            for (String part : parts) {
                check(KeySchema.unescape(KeySchema.escape(part)).equals(part), part, () -> "does not round-trip");
                check(KeySchema.escape(part).indexOf(':') < 0, part, () -> "escapes to a ':'");
            }
        }
    }

    @Test
    void aPatternMatchesExactlyTheKeysWhoseLeadingPartsItNames() {
        Random random = new Random(13);
        List<String> vocabulary = vocabulary(random);
        List<Stored<List<String>>> entities = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            List<String> parts = pick(vocabulary, 1 + random.nextInt(3), random);
            String key = SCHEMA.key(parts.toArray(String[]::new));
            entities.add(Stored.of(parts, key, pick(vocabulary, 1, random).get(0)));
        }
        List<String> foreign = List.of(KeySchema.of("cache.productx").key("a"),
                KeySchema.of("cache").key("product", "a"), "cache.product:a");
        for (int i = 0; i < 300; i++) {
            List<String> prefix = pick(vocabulary, random.nextInt(3), random);
            String pattern = SCHEMA.pattern(prefix.toArray(String[]::new));
            checkSelects(pattern, prefix, entities,
                    parts -> parts.size() >= prefix.size() && parts.subList(0, prefix.size()).equals(prefix));
            foreign.forEach(key -> assertThat(RedisGlob.matches(wire(pattern), wire(key))).isFalse());
        }
    }

    @Test
    void distinctNamesGiveDistinctKeyBytesWithTheEscapedNameAsHashTag() {
        Random random = new Random(15);
        Map<String, String> nameByKey = new HashMap<>();
        for (int i = 0; i < RUNS; i++) {
            String name = randomString(random) + (random.nextBoolean() ? ":" + randomString(random) : "");
            String key = SCHEMA.nameKey(name);
            byte[] bytes = strictUtf8(key);
            checkDistinctOnTheWire(nameByKey, name, key, bytes, random);
            String tag = new String(hashTag(bytes), StandardCharsets.UTF_8);
            check(key.equals("cache.product:{" + tag + "}"), key, () -> "the tag is not the whole name");
            check(KeySchema.unescape(tag).equals(name), name, () -> "does not round-trip");
            check(!plainName(name) || tag.equals(name), name, () -> "a plain name is escaped: " + tag);
        }
    }

    @Test
    void aNamePatternMatchesExactlyTheNamesThatStartWithThePrefix() {
        Random random = new Random(16);
        List<String> vocabulary = vocabulary(random);
        List<Stored<String>> names = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            String name = String.join("", pick(vocabulary, 1 + random.nextInt(3), random));
            names.add(Stored.of(name, SCHEMA.nameKey(name), "fence"));
        }
        for (int i = 0; i < 300; i++) {
            String some = names.get(random.nextInt(names.size())).input();
            String prefix = random.nextBoolean() ? some.substring(0, random.nextInt(some.length() + 1))
                    : String.join("", pick(vocabulary, random.nextInt(3), random));
            String pattern = SCHEMA.namePattern(prefix);
            checkSelects(pattern, prefix, names, name -> startsWithCodePoints(name, prefix));
            String foreign = KeySchema.of("cache.productx").nameKey(prefix);
            assertThat(RedisGlob.matches(wire(pattern), wire(foreign))).isFalse();
        }
    }

    /** An input with its key and one child of it, as the bytes Redis receives. */
    private record Stored<T>(T input, byte[] key, byte[] child) {
        static <T> Stored<T> of(T input, String key, String childSuffix) {
            return new Stored<>(input, wire(key), wire(SCHEMA.child(key, childSuffix)));
        }
    }

    /** The pattern selects each key, and its child, exactly when {@code selected} holds for its input. */
    private static <T> void checkSelects(String pattern, Object prefix, List<Stored<T>> stored, Predicate<T> selected) {
        byte[] glob = wire(pattern);
        for (Stored<T> s : stored) {
            boolean expected = selected.test(s.input());
            check(RedisGlob.matches(glob, s.key()) == expected && RedisGlob.matches(glob, s.child()) == expected,
                    String.valueOf(s.input()), () -> "key or child " + (expected ? "not " : "") + "matched: " + prefix);
        }
    }

    /** No other input had these key bytes; Lettuce sends them; no glob or tag byte in the tag; a child shares it. */
    private static <T> void checkDistinctOnTheWire(Map<String, T> seen, T input, String key, byte[] bytes,
            Random random) {
        T before = seen.putIfAbsent(new String(bytes, StandardCharsets.ISO_8859_1), input);
        // Plain checks, and AssertJ only to report: 200,000 rounds of fluent assertions take seconds.
        check(before == null || before.equals(input), key, () -> "also the key of " + before);
        check(Arrays.equals(wire(key), bytes), key, () -> "Lettuce sends other bytes");
        check(noGlobOrTag(hashTag(bytes)), key, () -> "a glob or tag character in the hash tag");
        byte[] childTag = hashTag(wire(SCHEMA.child(key, randomString(random))));
        check(Arrays.equals(childTag, hashTag(bytes)), key, () -> "a child leaves the slot");
    }

    /** A prefix that does not cut a surrogate pair in two: a lone surrogate is one character of its own. */
    private static boolean startsWithCodePoints(String name, String prefix) {
        return name.startsWith(prefix) && !(!prefix.isEmpty() && name.length() > prefix.length()
                && Character.isHighSurrogate(prefix.charAt(prefix.length() - 1))
                && Character.isLowSurrogate(name.charAt(prefix.length())));
    }

    /** A name that nameKey leaves as it is: no tag, glob or escape character, no control, no lone surrogate. */
    private static boolean plainName(String name) {
        return !name.isEmpty() && name.codePoints().noneMatch(c -> c < 0x20 || c == 0x7F
                || Character.isSurrogate((char) c) && c <= 0xFFFF || (GLOB_AND_TAG + "%").indexOf(c) >= 0);
    }

    static void check(boolean holds, String input, Supplier<String> problem) {
        if (!holds) {
            fail(problem.get() + ": " + input + " " + input.chars().mapToObj(Integer::toHexString).toList());
        }
    }

    static boolean noGlobOrTag(byte[] bytes) {
        for (byte b : bytes) {
            if (GLOB_AND_TAG.indexOf(b) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** Few strings, many of them awkward, so that random picks share prefixes. */
    static List<String> vocabulary(Random random) {
        List<String> words = new ArrayList<>(List.of("", "a", "ab", "?", "*", "%", "%25", ":", "a:b", "{", "}", "[",
                "]", "\\", " ", "\n", "\uD800", "\uDC00", "\uD83D", "\uDE00", "\uD83D\uDE00", "\uFFFD", "é", "日"));
        for (int i = 0; i < 16; i++) {
            words.add(randomString(random));
        }
        return words;
    }

    static List<String> pick(List<String> vocabulary, int count, Random random) {
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            picked.add(vocabulary.get(random.nextInt(vocabulary.size())));
        }
        return picked;
    }

    /** 0 to 8 characters: ASCII specials, controls, letters of the BMP and beyond, and lone surrogates. */
    static String randomString(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int n = random.nextInt(9); n > 0; n--) {
            switch (random.nextInt(8)) {
                case 0, 1 -> sb.append(ASCII_SPECIALS.charAt(random.nextInt(ASCII_SPECIALS.length())));
                case 2 -> sb.append((char) (random.nextBoolean() ? random.nextInt(0x20) : 0x7F));
                case 3 -> sb.append((char) ('a' + random.nextInt(26)));
                case 4 -> sb.append("éж日\uFFFD\u0080\u00A0".charAt(random.nextInt(6)));
                case 5 -> sb.appendCodePoint(0x1F600 + random.nextInt(0x50));
                case 6 -> sb.append((char) (0xD800 + random.nextInt(0x400)));
                default -> sb.append((char) (0xDC00 + random.nextInt(0x400)));
            }
        }
        return sb.toString();
    }

    /** UTF-8 that fails on a lone surrogate, where Java and Lettuce would quietly write '?'. */
    static byte[] strictUtf8(String s) {
        try {
            var buffer = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(s));
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (CharacterCodingException e) {
            throw new AssertionError("not valid UTF-16: " + s.chars().mapToObj(Integer::toHexString).toList(), e);
        }
    }
}
