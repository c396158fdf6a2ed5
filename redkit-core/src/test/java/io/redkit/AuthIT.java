package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.redkit.testing.RedisServerExtension;

/** ACL users and passwords come from the URL, and a wrong one is reported without being printed. */
class AuthIT {

    private static final String APP_PASSWORD = "app-Pa55-w0rd";

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.standalone();

    @BeforeAll
    static void createAclUser() {
        redis.server().command("ACL", "SETUSER", "app", "on", ">" + APP_PASSWORD, "~app:*", "+@all");
    }

    @Test
    void aclUserFromTheUrlCanWorkInItsKeyspaceOnly() {
        String url = "redis://app:" + APP_PASSWORD + "@127.0.0.1:" + redis.server().port();
        try (Redkit redkit = Redkit.connect(url)) {
            redkit.commands().setString("app:greeting", "hi", Duration.ofMinutes(1));
            assertThat(redkit.commands().getString("app:greeting")).contains("hi");
            assertThatThrownBy(() -> redkit.commands().get("other:key"))
                    .isInstanceOfSatisfying(RedisCommandException.class,
                            e -> assertThat(e.errorCode()).isEqualTo("NOPERM"));
            assertThat(redkit.toString()).doesNotContain(APP_PASSWORD);
        }
    }

    @Test
    void wrongPasswordFailsAtConnectWithoutPrintingIt() {
        String wrong = "not-the-Pa55";
        String url = "redis://app:" + wrong + "@127.0.0.1:" + redis.server().port();
        assertThatThrownBy(() -> Redkit.connect(url))
                .isInstanceOf(RedisUnavailableException.class)
                .satisfies(e -> assertThat(stackText(e)).doesNotContain(wrong));
    }

    @Test
    void unreachableServerFailsFastAtConnect() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> Redkit.connect("redis://:secret-pw@127.0.0.1:1"))
                .isInstanceOf(RedisUnavailableException.class)
                .satisfies(e -> assertThat(stackText(e)).doesNotContain("secret-pw"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    private static String stackText(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c).append('\n');
        }
        return sb.toString();
    }
}
