package io.redkit.session.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.redkit.session.SessionId;

/** The stored form: readable by another language, bound to its id, and safe to meet from another release. */
class EnvelopeTest {

    private final SessionId id = SessionId.generate();

    @Test
    void writesAJsonHeaderLineThenThePayload() {
        byte[] bytes = Envelope.write(id, "alice \"quoted\"\n", 1000, 2000, 7, 3, "{\"a\":1}".getBytes());
        String text = new String(bytes, StandardCharsets.UTF_8);

        assertThat(text).startsWith("{\"v\":2,\"exp\":2000,\"rev\":7,\"iat\":1000,\"dv\":3,\"sid\":\"")
                .endsWith("\"uid\":\"alice \\\"quoted\\\"\\n\"}\n{\"a\":1}");
        assertThat(text).doesNotContain(id.value());
        Envelope.Opened opened = Envelope.open(id, bytes, 3);
        assertThat(opened.status()).isEqualTo(Envelope.Status.VALID);
        assertThat(opened.userId()).isEqualTo("alice \"quoted\"\n");
        assertThat(opened.expiresAt()).isEqualTo(2000);
        assertThat(opened.createdAt()).isEqualTo(1000);
        assertThat(opened.revision()).isEqualTo(7);
        assertThat(new String(opened.source(), opened.payloadOffset(), opened.payloadLength(), StandardCharsets.UTF_8))
                .isEqualTo("{\"a\":1}");
    }

    @Test
    void theLoadScriptsPrefixHoldsTheAbsoluteExpiry() {
        byte[] bytes = Envelope.write(id, "u", 1, 1_767_225_600_000L, 0, 1, new byte[0]);
        // touch.lua reads '^{"v":%d+,"exp":(%d+)'; the same in Java terms.
        assertThat(new String(bytes, StandardCharsets.UTF_8)).matches("(?s)^\\{\"v\":\\d+,\"exp\":1767225600000,.*");
    }

    @Test
    void aValueCopiedUnderAnotherIdIsCorrupt() {
        byte[] bytes = Envelope.write(id, "alice", 1, 2, 0, 1, "{}".getBytes());
        assertThat(Envelope.open(SessionId.generate(), bytes, 1).status()).isEqualTo(Envelope.Status.CORRUPT);
    }

    @Test
    void garbageIsCorruptNeverAnException() {
        for (String s : new String[] {"", "\n", "not json\n{}", "{\"v\":1}\n{}", "{\"v\":\"1\",\"exp\":2}\n",
            "[1,2]\n", "{\"v\":1,\"exp\":2,\"iat\":1,\"dv\":1,\"sid\":7,\"uid\":\"a\"}\n", "{\"v\":1,\"exp\":2",
            "{\"v\":0,\"exp\":2,\"iat\":1,\"dv\":1,\"sid\":\"" + Envelope.fingerprint(id) + "\",\"uid\":\"a\"}\n"}) {
            assertThat(Envelope.open(id, s.getBytes(StandardCharsets.UTF_8), 1).status()).as(s)
                    .isEqualTo(Envelope.Status.CORRUPT);
        }
    }

    @Test
    void theFirstFormatIsReadAsRevisionZero() {
        byte[] first = ("{\"v\":1,\"exp\":2000,\"iat\":1000,\"dv\":1,\"sid\":\"" + Envelope.fingerprint(id)
                + "\",\"uid\":\"alice\"}\n{}").getBytes(StandardCharsets.UTF_8);
        Envelope.Opened opened = Envelope.open(id, first, 1);
        assertThat(opened.status()).isEqualTo(Envelope.Status.VALID);
        assertThat(opened.revision()).isZero();
        assertThat(opened.expiresAt()).isEqualTo(2000);
    }

    @Test
    void theFingerprintIsTheStartOfTheDigest() {
        assertThat(id.digest()).hasSize(43).startsWith(Envelope.fingerprint(id)).isNotEqualTo(id.value());
    }

    @Test
    void aNewerFormatOrDataVersionIsLeftToTheNewerRelease() {
        String sid = Envelope.fingerprint(id);
        byte[] newerFormat = ("{\"v\":3,\"exp\":2,\"whatever\":[1]}\n{}").getBytes(StandardCharsets.UTF_8);
        byte[] newerData = Envelope.write(id, "alice", 1, 2, 0, 5, "{}".getBytes());
        byte[] olderData = Envelope.write(id, "alice", 1, 2, 0, 1, "{}".getBytes());

        assertThat(Envelope.open(id, newerFormat, 1).status()).isEqualTo(Envelope.Status.NEWER);
        assertThat(Envelope.open(id, newerData, 4).status()).isEqualTo(Envelope.Status.NEWER);
        assertThat(Envelope.open(id, olderData, 4).status()).isEqualTo(Envelope.Status.VALID);
        assertThat(sid).hasSize(16);
    }

    @Test
    void aHeaderWrittenByAnotherLibraryIsRead() {
        // Spaces, escaped slashes and unicode escapes, as another language's JSON writer may produce them.
        String header = "{ \"v\": 2, \"exp\": 2000, \"rev\": 1, \"iat\": 1000, \"dv\": 1, \"sid\": \""
                + Envelope.fingerprint(id) + "\", \"uid\": \"ren\\u00e9\\/\\u0001\\ud83d\\ude00\" }\n{}";
        Envelope.Opened opened = Envelope.open(id, header.getBytes(StandardCharsets.UTF_8), 1);

        assertThat(opened.status()).isEqualTo(Envelope.Status.VALID);
        assertThat(opened.userId()).isEqualTo("ren\u00e9/\u0001\ud83d\ude00");
    }

    @Test
    void anyUserIdComesBackAsItWasWritten() {
        for (String uid : new String[] {"", "ren\u00e9 \ud83d\ude00", "tab\tcr\r\u0000\u001f\u007f",
            "back\\slash\"q\"", "</script>"}) {
            byte[] bytes = Envelope.write(id, uid, 1, 2, 0, 1, "{}".getBytes());
            assertThat(new String(bytes, StandardCharsets.UTF_8)).as(uid).containsOnlyOnce("\n");
            assertThat(Envelope.open(id, bytes, 1).userId()).as(uid).isEqualTo(uid);
        }
    }
}
