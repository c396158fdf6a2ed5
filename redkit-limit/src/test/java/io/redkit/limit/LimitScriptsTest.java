package io.redkit.limit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import io.redkit.Idempotency;

/**
 * Every limit script is a resource file with the header the style asks for, reads the server's clock and counts;
 * what every algorithm shares (the clock, the deciding limit, the reply and when state is written) is said once, in
 * prelude.lua: each script runs behind it, with the SHA of the joined
 * text, and no script file repeats it. That the decisions are unchanged is the limit contract's to show.
 */
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

    @Test
    void everyScriptRunsBehindThePreludeUnderTheShaOfTheJoinedText() throws Exception {
        String prelude = read(LimitScripts.PRELUDE);
        for (Algorithm algorithm : Algorithm.values()) {
            var script = LimitScripts.of(algorithm);
            assertThat(script.source()).as(algorithm.name()).isEqualTo(prelude + read(script.name() + ".lua"));
            assertThat(script.sha1()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(script.source().getBytes(StandardCharsets.UTF_8))));
        }
        assertThat(LimitScripts.ALL).hasSize(Algorithm.values().length);
    }

    @Test
    void noScriptFileRepeatsWhatThePreludeSays() throws IOException {
        for (String file : new String[] {"fixed-window.lua", "sliding-log.lua", "sliding-counter.lua", "gcra.lua"}) {
            String own = read(file);
            assertThat(own).as(file).doesNotContain("local function idiv", "redis.call('TIME')",
                    "'CORRUPTLIMIT ", "local function decide", "decide(", "return {0, pick", "return {1, pick");
            assertThat(own).as(file).contains("return settle(ok, left, wait, reset, function(i)");
        }
    }

    private static String read(String resource) throws IOException {
        try (InputStream in = LimitScripts.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
