package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.lettuce.core.cluster.SlotHash;

class KeySchemaTest {

    private final KeySchema locks = KeySchema.of("lock");

    @Test
    void relatedKeysShareAHashTagAndSlot() {
        String lock = locks.key("job", "42");
        String fence = locks.child(lock, "fence");
        assertThat(lock).isEqualTo("lock:{job:42}");
        assertThat(fence).isEqualTo("lock:{job:42}:fence");
        assertThat(SlotHash.getSlot(fence)).isEqualTo(SlotHash.getSlot(lock)).isEqualTo(SlotHash.getSlot("job:42"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{x}", "a}b{c", "}", "{", "{}", "42:fence", "*", "a?b", "[abc]", "back\\slash",
        "line\nbreak", "tab\t", " ", "", "%", "%25", "заказ-№7", "日本", "emoji😀", "a:b:c",
        "\uD800", "a\uDC00b", "\uDE00\uD83D", "%ED%A0%80"})
    void userPartsCannotMoveTheSlotOrBreakTheShape(String part) {
        String key = locks.key("job", part);
        String child = locks.child(key, part);
        // The slot is the one of the escaped tag content: a '{' or '}' in the part cannot select another tag.
        String tag = "job:" + KeySchema.escape(part);
        assertThat(SlotHash.getSlot(key)).isEqualTo(SlotHash.getSlot(tag));
        assertThat(SlotHash.getSlot(child)).isEqualTo(SlotHash.getSlot(key));
        // Exactly one tag, and no raw separator or glob character from the part.
        assertThat(key.chars().filter(c -> c == '{').count()).isEqualTo(1);
        assertThat(key.chars().filter(c -> c == '}').count()).isEqualTo(1);
        assertThat(KeySchema.escape(part)).doesNotContain(":", "*", "?", "[", "]", "\\", "\n", " ", "{", "}");
        assertThat(locks.parts(key)).contains(List.of("job", part));
        assertThat(KeySchema.unescape(KeySchema.escape(part))).isEqualTo(part);
    }

    @Test
    void partsCannotCollideWithAnotherEntity() {
        assertThat(locks.key("a:b")).isNotEqualTo(locks.key("a", "b"));
        assertThat(locks.key("a", "")).isNotEqualTo(locks.key("a"));
        assertThat(locks.key("")).isEqualTo("lock:{%}");
        assertThat(KeySchema.of("cache").key("x")).isNotEqualTo(locks.key("x"));
    }

    @Test
    void aListOfPartsGivesTheKeyTheSamePartsGiveAsArguments() {
        for (String[] parts : new String[][] {{"42"}, {"job", "42"}, {"a:b", "", "*", "\uD800", "{x}"}}) {
            assertThat(locks.key(List.of(parts))).isEqualTo(locks.key(parts));
        }
        assertThatThrownBy(() -> locks.key(List.<String>of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> locks.key((List<String>) null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> locks.key(java.util.Arrays.asList("a", null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be null");
    }

    @Test
    void globCharactersInPartsMatchOnlyThemselves() {
        String pattern = locks.pattern("job", "*");
        assertThat(pattern).isEqualTo("lock:{job:%2A[}:]*");
        assertThat(matches(pattern, locks.key("job", "*"))).isTrue();
        assertThat(matches(pattern, locks.child(locks.key("job", "*"), "fence"))).isTrue();
        assertThat(matches(pattern, locks.key("job", "*", "more"))).isTrue();
        assertThat(matches(pattern, locks.key("job", "42"))).isFalse();
        assertThat(matches(pattern, locks.key("job", "*x"))).isFalse();
        assertThat(matches(locks.pattern(), locks.key("anything"))).isTrue();
        assertThat(matches(locks.pattern(), KeySchema.of("locks").key("anything"))).isFalse();
    }

    @Test
    void loneSurrogatesAreEscapedInsteadOfSentAsQuestionMarks() {
        assertThat(locks.key("\uD800")).isEqualTo("lock:{%ED%A0%80}");
        assertThat(locks.key("a\uDFFFb")).isEqualTo("lock:{a%ED%BF%BFb}");
        assertThat(locks.key("\uD83D\uDE00")).isEqualTo("lock:{\uD83D\uDE00}");
        List<String> keys = List.of(locks.key("\uD800"), locks.key("\uDC00"), locks.key("?"), locks.key("%3F"),
                locks.key("\uFFFD"), locks.key("\uDE00\uD83D"), locks.key("\uD83D\uDE00"));
        assertThat(keys.stream().map(k -> new String(RedisGlob.wire(k), StandardCharsets.ISO_8859_1)))
                .doesNotHaveDuplicates();
        assertThat(KeySchema.unescape("%ED%A0%80")).isEqualTo("\uD800");
        assertThat(KeySchema.unescape(KeySchema.escape("\uDE00\uD83D"))).isEqualTo("\uDE00\uD83D");
    }

    @Test
    void invalidatingByALoneSurrogatePrefixReachesNoOtherEntity() {
        String pattern = locks.pattern("\uD800");
        assertThat(matches(pattern, locks.key("\uD800"))).isTrue();
        assertThat(matches(pattern, locks.key("\uD800", "x"))).isTrue();
        for (String other : List.of("a", "?", "\uDC00", "\uD801", "\uFFFD", "ab")) {
            assertThat(matches(pattern, locks.key(other))).as(other).isFalse();
        }
    }

    @Test
    void escapedFormsOtherThanAsciiAndLoneSurrogatesAreRefused() {
        assertThatThrownBy(() -> KeySchema.unescape("%C3%A9")).hasMessageContaining("not an escaped key part");
        assertThatThrownBy(() -> KeySchema.unescape("%ED%A0")).hasMessageContaining("not an escaped key part");
        assertThatThrownBy(() -> KeySchema.unescape("%2")).hasMessageContaining("not an escaped key part");
        assertThat(locks.parts("lock:{%ZZ}")).isEmpty();
    }

    @Test
    void lockNameKeepsItsColonsSoAnotherClientsKeyIsTheSame() {
        assertThat(locks.nameKey("job:42")).isEqualTo("lock:{job:42}");
        assertThat(locks.nameKey("orders:eu-west:nightly report")).isEqualTo("lock:{orders:eu-west:nightly report}");
        assertThat(locks.nameKey("заказ:№7 😀")).isEqualTo("lock:{заказ:№7 😀}");
        assertThat(locks.child(locks.nameKey("job:42"), "fence")).isEqualTo("lock:{job:42}:fence");
        assertThat(SlotHash.getSlot(locks.child(locks.nameKey("job:42"), "fence")))
                .isEqualTo(SlotHash.getSlot(locks.nameKey("job:42"))).isEqualTo(SlotHash.getSlot("job:42"));
    }

    @Test
    void nameKeyEscapesOnlyWhatBreaksTheTagAPatternOrTheEscaping() {
        assertThat(locks.nameKey("a{b}*?[c]\\d%e")).isEqualTo("lock:{a%7Bb%7D%2A%3F%5Bc%5D%5Cd%25e}");
        assertThat(locks.nameKey("line\nbreak\u007F")).isEqualTo("lock:{line%0Abreak%7F}");
        assertThat(locks.nameKey("\uD800:\uDC00")).isEqualTo("lock:{%ED%A0%80:%ED%B0%80}");
        assertThat(locks.nameKey("")).isEqualTo("lock:{%}");
        assertThat(locks.nameKey("%")).isEqualTo("lock:{%25}");
        assertThat(KeySchema.unescape("a%7Bb%7D%2A%3F%5Bc%5D%5Cd%25e")).isEqualTo("a{b}*?[c]\\d%e");
        assertThatThrownBy(() -> locks.nameKey(null)).hasMessageContaining("null");
    }

    @Test
    void namePatternMatchesTheNamesWithThatPrefixAndTheirChildren() {
        String pattern = locks.namePattern("job:4");
        assertThat(pattern).isEqualTo("lock:{job:4*");
        assertThat(matches(pattern, locks.nameKey("job:4"))).isTrue();
        assertThat(matches(pattern, locks.nameKey("job:42"))).isTrue();
        assertThat(matches(pattern, locks.child(locks.nameKey("job:42"), "fence"))).isTrue();
        assertThat(matches(pattern, locks.nameKey("job:5"))).isFalse();
        assertThat(matches(pattern, locks.nameKey("job"))).isFalse();
        assertThat(matches(locks.namePattern("a*"), locks.nameKey("a*b"))).isTrue();
        assertThat(matches(locks.namePattern("a*"), locks.nameKey("ab"))).isFalse();
        assertThat(matches(locks.namePattern("\uD83D"), locks.nameKey("\uD83D\uDE00"))).isFalse();
        assertThat(matches(locks.namePattern("\uD83D"), locks.nameKey("\uD83Dx"))).isTrue();
        assertThat(locks.namePattern("")).isEqualTo("lock:{*");
        assertThat(matches(locks.namePattern(""), locks.nameKey(""))).isTrue();
    }

    @Test
    void badNamespacesAndForeignKeysAreRefused() {
        assertThatThrownBy(() -> KeySchema.of("has:colon")).hasMessageContaining("namespace");
        assertThatThrownBy(() -> KeySchema.of("")).hasMessageContaining("namespace");
        assertThatThrownBy(() -> KeySchema.of("glob*")).hasMessageContaining("namespace");
        assertThatThrownBy(() -> locks.key()).hasMessageContaining("at least one part");
        assertThatThrownBy(() -> locks.key((String) null)).hasMessageContaining("null");
        assertThatThrownBy(() -> locks.child("cache:{x}", "fence")).hasMessageContaining("not a key of");
        assertThat(locks.parts("cache:{x}")).isEmpty();
    }

    private static boolean matches(String pattern, String key) {
        return RedisGlob.matches(RedisGlob.wire(pattern), RedisGlob.wire(key));
    }
}
