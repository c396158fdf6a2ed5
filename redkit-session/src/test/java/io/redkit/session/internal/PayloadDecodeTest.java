package io.redkit.session.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.redkit.session.Session;
import io.redkit.session.SessionCodec;
import io.redkit.session.SessionConfig;
import io.redkit.session.SessionId;

/**
 * A load hands the codec the array Redis answered, with the payload's offset and length after the header line
 * (issue 21: copying the payload out first was one of the costs a load added to raw Lettuce's same commands).
 */
class PayloadDecodeTest {

    /** What the codec was handed, call by call. */
    record Slice(byte[] array, int offset, int length) {
    }

    private final List<Slice> handed = new ArrayList<>();

    private final SessionCodec<String> recording = new SessionCodec<>() {
        @Override
        public byte[] encode(String data) {
            return ("\"" + data + "\"").getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] bytes) {
            throw new AssertionError("the store reads through decode(bytes, offset, length)");
        }

        @Override
        public String decode(byte[] bytes, int offset, int length) {
            handed.add(new Slice(bytes, offset, length));
            return new String(bytes, offset + 1, length - 2, StandardCharsets.UTF_8);
        }
    };

    @Test
    void thePayloadIsDecodedInTheArrayRedisAnsweredAfterTheHeaderLine() {
        SessionCoder<String> coder = new SessionCoder<>(SessionConfig.builder().namespace("slices").build(),
                recording);
        SessionId id = SessionId.generate();
        Instant now = Instant.ofEpochMilli(1_767_182_400_000L);
        byte[] stored = coder.encode(new Session<>(id, "alice", "kettle", now, now.plusSeconds(3600), 0));

        SessionCoder.Read<String> read = coder.decode(id, stored);

        assertThat(read.status()).isEqualTo(Envelope.Status.VALID);
        assertThat(read.session().data()).isEqualTo("kettle");
        int header = new String(stored, StandardCharsets.UTF_8).indexOf('\n') + 1;
        assertThat(handed).containsExactly(new Slice(stored, header, stored.length - header));
    }

    @Test
    void aCodecOfTheWholeArrayOnlyGetsACopyOfThePayload() throws Exception {
        SessionCodec<String> whole = new SessionCodec<>() {
            @Override
            public byte[] encode(String data) {
                return data.getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public String decode(byte[] bytes) {
                return new String(bytes, StandardCharsets.UTF_8);
            }
        };
        byte[] stored = "header\npayload".getBytes(StandardCharsets.UTF_8);

        assertThat(whole.decode(stored, 7, 7)).isEqualTo("payload");
        assertThat(whole.decode(stored, 0, stored.length)).isEqualTo("header\npayload");
    }
}
