package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.regex.Pattern;

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
        "line\nbreak", "tab\t", " ", "", "%", "%25", "заказ-№7", "日本", "emoji😀", "a:b:c"})
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
    void globCharactersInPartsMatchOnlyThemselves() {
        String pattern = locks.pattern("job", "*");
        assertThat(pattern).isEqualTo("lock:{job:%2A[}:]*");
        Pattern regex = globToRegex(pattern);
        assertThat(regex.matcher(locks.key("job", "*")).matches()).isTrue();
        assertThat(regex.matcher(locks.child(locks.key("job", "*"), "fence")).matches()).isTrue();
        assertThat(regex.matcher(locks.key("job", "*", "more")).matches()).isTrue();
        assertThat(regex.matcher(locks.key("job", "42")).matches()).isFalse();
        assertThat(regex.matcher(locks.key("job", "*x")).matches()).isFalse();
        Pattern all = globToRegex(locks.pattern());
        assertThat(all.matcher(locks.key("anything")).matches()).isTrue();
        assertThat(all.matcher(KeySchema.of("locks").key("anything")).matches()).isFalse();
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

    /** Redis glob semantics for the characters KeySchema emits: '*', '[...]', everything else literal. */
    private static Pattern globToRegex(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*') {
                re.append(".*");
            } else if (c == '[') {
                int close = glob.indexOf(']', i);
                re.append('[').append(Pattern.quote(glob.substring(i + 1, close)).replace("\\Q", "").replace("\\E", ""))
                        .append(']');
                i = close;
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
