package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A script made of several resources is their text joined in order, named after the last one, cached under the
 * SHA of the joined text; one resource is the same as {@link RedisScript#fromResource}. What a resource that is
 * not there does is said, naming it.
 */
class RedisScriptTest {

    @Test
    void severalResourcesAreJoinedInOrderUnderTheShaOfTheJoinedText() throws Exception {
        RedisScript<Long> script = RedisScript.fromResources(RedisScriptTest.class,
                List.of("script-prelude.lua", "script-body.lua"), ScriptResult.INTEGER, Idempotency.IDEMPOTENT);

        String joined = read("script-prelude.lua") + read("script-body.lua");
        assertThat(script.source()).isEqualTo(joined);
        assertThat(script.name()).isEqualTo("script-body");
        assertThat(script.sha1()).isEqualTo(HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-1").digest(joined.getBytes(StandardCharsets.UTF_8))));
        assertThat(script.result()).isEqualTo(ScriptResult.INTEGER);
        assertThat(script.idempotency()).isEqualTo(Idempotency.IDEMPOTENT);
    }

    @Test
    void oneResourceIsWhatFromResourceDeclares() throws Exception {
        RedisScript<Long> one = RedisScript.fromResource(RedisScriptTest.class, "script-body.lua",
                ScriptResult.INTEGER, Idempotency.NON_IDEMPOTENT);

        assertThat(one.source()).isEqualTo(read("script-body.lua"));
        assertThat(one.name()).isEqualTo("script-body");
        assertThat(one.sha1()).isEqualTo(RedisScript.fromResources(RedisScriptTest.class, List.of("script-body.lua"),
                ScriptResult.INTEGER, Idempotency.NON_IDEMPOTENT).sha1());
    }

    @Test
    void aMissingResourceOrNoneAtAllIsRefusedByName() {
        assertThatThrownBy(() -> RedisScript.fromResources(RedisScriptTest.class,
                List.of("script-prelude.lua", "nowhere.lua"), ScriptResult.INTEGER, Idempotency.IDEMPOTENT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'nowhere.lua'")
                .hasMessageContaining(RedisScriptTest.class.getName());
        assertThatThrownBy(() -> RedisScript.fromResources(RedisScriptTest.class, List.of(), ScriptResult.INTEGER,
                Idempotency.IDEMPOTENT)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one resource");
    }

    private static String read(String resource) throws IOException {
        try (InputStream in = RedisScriptTest.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
