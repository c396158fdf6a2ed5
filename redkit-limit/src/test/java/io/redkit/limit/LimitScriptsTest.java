package io.redkit.limit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.redkit.Idempotency;

/** Every limit script is a resource file with the header the style asks for, reads the server's clock and counts. */
class LimitScriptsTest {

    @Test
    void everyScriptDocumentsKeysArgvReplyAndWhyItIsAtomicAndReadsTheServersClock() {
        for (Algorithm algorithm : Algorithm.values()) {
            var script = LimitScripts.of(algorithm);
            assertThat(script.source()).as(script.name())
                    .contains("-- KEYS[i]", "-- ARGV[1]", "-- Returns", "Atomic because", "redis.call('TIME')")
                    .doesNotContain("tostring(");
            assertThat(script.idempotency()).as(script.name()).isEqualTo(Idempotency.NON_IDEMPOTENT);
        }
    }
}
