package io.redkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.redkit.Idempotency;
import io.redkit.RedisScript;

/** Every lock script is a resource file with the header the style asks for, and declares honest idempotency. */
class LockScriptsTest {

    @Test
    void everyScriptDocumentsKeysArgvReplyAndWhyItIsAtomic() {
        for (RedisScript<?> script : List.of(LockScripts.ACQUIRE, LockScripts.FENCED_ACQUIRE, LockScripts.RELEASE,
                LockScripts.EXTEND, LockScripts.CONFIRM)) {
            assertThat(script.source()).as(script.name())
                    .contains("-- KEYS[1]", "-- ARGV[1]", "-- Returns", "Atomic because");
            assertThat(script.sha1()).hasSize(40);
        }
    }

    @Test
    void theTokenIssuingScriptAndTheReleaseAreNeverRetriedAfterTheyMayHaveRun() {
        // The release's reply is its meaning (1 released, 0 lost): a retry after a first run answers 0.
        assertThat(List.of(LockScripts.FENCED_ACQUIRE, LockScripts.RELEASE))
                .allSatisfy(s -> assertThat(s.idempotency()).isEqualTo(Idempotency.NON_IDEMPOTENT));
        assertThat(List.of(LockScripts.ACQUIRE, LockScripts.EXTEND, LockScripts.CONFIRM))
                .allSatisfy(s -> assertThat(s.idempotency()).isEqualTo(Idempotency.IDEMPOTENT));
    }

    @Test
    void bothAcquiringScriptsRunBehindBusyAndNeitherFileRepeatsIt() throws IOException {
        String busy = read(LockScripts.BUSY);
        assertThat(LockScripts.ACQUIRE.source()).isEqualTo(busy + read("acquire.lua"));
        assertThat(LockScripts.FENCED_ACQUIRE.source()).isEqualTo(busy + read("fenced-acquire.lua"));
        assertThat(List.of(LockScripts.ACQUIRE.name(), LockScripts.FENCED_ACQUIRE.name()))
                .containsExactly("acquire", "fenced-acquire");
        for (String file : List.of("acquire.lua", "fenced-acquire.lua")) {
            assertThat(read(file)).as(file).contains("busy()").doesNotContain("KEYS[2], '1', 'PX'");
        }
    }

    private static String read(String resource) throws IOException {
        try (InputStream in = LockScripts.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
