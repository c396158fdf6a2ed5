package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.redkit.testing.internal.ConfFile;
import io.redkit.testing.internal.ConfFile.Directive;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfFileTest {

    @Test
    void rendersOneDirectiveALineQuotingWhatRedisWouldSplit() {
        String conf = ConfFile.render(List.of(
                Directive.of("save", ""),
                Directive.of("dir", "/tmp/with space"),
                Directive.of("requirepass", "a\"b\\c"),
                Directive.of("sentinel", "monitor", "redkit", "127.0.0.1", 6380, 2)));
        assertThat(conf).isEqualTo("""
                save ""
                dir "/tmp/with space"
                requirepass "a\\"b\\\\c"
                sentinel monitor redkit 127.0.0.1 6380 2
                """);
    }
}
