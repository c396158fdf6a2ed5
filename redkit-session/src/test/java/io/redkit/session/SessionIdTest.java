package io.redkit.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Ids: 32 random bytes as 43 characters of base64url, one spelling each, and nothing else accepted. */
class SessionIdTest {

    @Test
    void generatedIdIsThirtyTwoBytesOfUnpaddedBase64Url() {
        SessionId id = SessionId.generate();
        assertThat(id.value()).hasSize(43).matches("[A-Za-z0-9_-]{43}");
        assertThat(Base64.getUrlDecoder().decode(id.value())).hasSize(32);
        assertThat(SessionId.parse(id.value())).isEqualTo(id);
    }

    @Test
    void tenThousandGeneratedIdsAreDistinct() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            assertThat(seen.add(SessionId.generate().value())).isTrue();
        }
    }

    @Test
    void garbageForgedOversizedAndWronglyEncodedTextIsRefusedWithItsReason() {
        String valid = SessionId.generate().value();
        assertReason(null, InvalidSessionIdException.Reason.NULL);
        assertReason("", InvalidSessionIdException.Reason.LENGTH);
        assertReason(valid.substring(1), InvalidSessionIdException.Reason.LENGTH);
        assertReason(valid + "A", InvalidSessionIdException.Reason.LENGTH);
        assertReason(valid + "=", InvalidSessionIdException.Reason.LENGTH);
        assertReason("x".repeat(1 << 20), InvalidSessionIdException.Reason.LENGTH);
        assertReason(valid.substring(0, 42) + "=", InvalidSessionIdException.Reason.ALPHABET);
        assertReason("+" + valid.substring(1), InvalidSessionIdException.Reason.ALPHABET);
        assertReason("/" + valid.substring(1), InvalidSessionIdException.Reason.ALPHABET);
        assertReason("{" + valid.substring(1, 42) + "}", InvalidSessionIdException.Reason.ALPHABET);
        assertReason("*" + valid.substring(1), InvalidSessionIdException.Reason.ALPHABET);
        assertReason(" " + valid.substring(1), InvalidSessionIdException.Reason.ALPHABET);
        assertReason("\r\n" + valid.substring(2), InvalidSessionIdException.Reason.ALPHABET);
        assertReason("é" + valid.substring(1), InvalidSessionIdException.Reason.ALPHABET);
        assertReason("Ａ" + valid.substring(1), InvalidSessionIdException.Reason.ALPHABET);
        assertReason("\0" + valid.substring(1), InvalidSessionIdException.Reason.ALPHABET);
    }

    @Test
    void aSecondSpellingOfTheSameBytesIsRefused() {
        byte[] bytes = new byte[32];
        String canonical = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        assertThat(canonical).endsWith("A");
        // 'B' sets one of the two unused low bits: a decoder that ignores them reads the same 32 bytes.
        String second = canonical.substring(0, 42) + "B";
        assertThat(Base64.getUrlDecoder().decode(second)).isEqualTo(bytes);

        assertThat(SessionId.tryParse(canonical)).isPresent();
        assertReason(second, InvalidSessionIdException.Reason.NOT_CANONICAL);
    }

    @Test
    void messageNeverEchoesTheText() {
        String almost = SessionId.generate().value().substring(0, 42) + "+";
        assertThatThrownBy(() -> SessionId.parse(almost)).isInstanceOf(InvalidSessionIdException.class)
                .hasMessageNotContaining(almost.substring(0, 10)).hasMessageContaining("ALPHABET")
                .hasMessageContaining("nothing was sent to Redis");
    }

    @Test
    void toStringShowsAShortPrefixOnly() {
        SessionId id = SessionId.generate();
        assertThat(id.toString()).contains(id.value().substring(0, 6)).doesNotContain(id.value().substring(0, 7));
        assertThat(id.shortForm()).hasSize(7);
    }

    private static void assertReason(String text, InvalidSessionIdException.Reason reason) {
        assertThat(SessionId.tryParse(text)).as("tryParse of %s", describe(text)).isEmpty();
        assertThatThrownBy(() -> SessionId.parse(text)).as(describe(text))
                .isInstanceOfSatisfying(InvalidSessionIdException.class, e -> {
                    assertThat(e.reason()).isEqualTo(reason);
                    assertThat(e.outcome()).isEqualTo(io.redkit.Outcome.NOT_EXECUTED);
                });
    }

    private static String describe(String text) {
        return text == null ? "null" : text.length() > 50 ? text.length() + " characters" : "'" + text + "'";
    }

    @Test
    void digestsWithOneDigestPerThreadNotOnePerId() throws Exception {
        String value = SessionId.generate().value();
        String expected = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(MessageDigest.getInstance("SHA-256").digest(value.getBytes("US-ASCII")));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        int ids = 20_000;
        for (int i = 0; i < ids; i++) { // warm
            SessionId.parse(value).digest();
        }

        long before = threads.getThreadAllocatedBytes(thread);
        int same = 0;
        for (int i = 0; i < ids; i++) {
            same += SessionId.parse(value).digest().equals(expected) ? 1 : 0;
        }
        long perId = (threads.getThreadAllocatedBytes(thread) - before) / ids;

        assertThat(same).isEqualTo(ids);
        // The id, the bytes hashed, the hash and its text: 288 bytes; MessageDigest.getInstance per id made it 808.
        assertThat(perId).as("bytes allocated per id digested").isLessThanOrEqualTo(480);
    }
}
