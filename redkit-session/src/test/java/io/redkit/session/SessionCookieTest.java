package io.redkit.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

/** The cookie: safe by default, and the builder refuses what a browser would drop or what would weaken it. */
class SessionCookieTest {

    private final SessionId id = SessionId.generate();

    @Test
    void defaultsAreHostPrefixedSecureHttpOnlyLaxAtRoot() {
        assertThat(SessionCookie.defaults().header(id)).isEqualTo(
                "__Host-sid=" + id.value() + "; Path=/; Secure; HttpOnly; SameSite=Lax");
    }

    @Test
    void maxAgeOfASessionIsWhatIsLeftOfItsAbsoluteLifetime() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        Session<String> s = new Session<>(id, "alice", "data", now, now.plus(Duration.ofHours(12)));

        assertThat(SessionCookie.defaults().header(s, now.plus(Duration.ofHours(2))))
                .contains("; Max-Age=36000;");
        assertThat(SessionCookie.builder().maxAge(Duration.ofHours(1)).build().header(s, now))
                .contains("; Max-Age=3600;");
        assertThat(SessionCookie.defaults().header(s, now.plus(Duration.ofDays(1)))).contains("; Max-Age=0;");
    }

    @Test
    void clearHeaderDeletesTheCookieWithTheSameAttributes() {
        assertThat(SessionCookie.defaults().clearHeader())
                .isEqualTo("__Host-sid=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Lax");
    }

    @Test
    void everyAttributeCanBeSet() {
        SessionCookie cookie = SessionCookie.builder().name("SID").path("/app").domain("example.com")
                .sameSite(SessionCookie.SameSite.STRICT).httpOnly(false).secure(false)
                .maxAge(Duration.ofMinutes(5)).build();
        assertThat(cookie.header(id)).isEqualTo("SID=" + id.value()
                + "; Path=/app; Domain=example.com; Max-Age=300; SameSite=Strict");
    }

    @Test
    void hostPrefixDemandsSecureRootPathAndNoDomain() {
        assertThatThrownBy(() -> SessionCookie.builder().secure(false).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("__Host-");
        assertThatThrownBy(() -> SessionCookie.builder().path("/app").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Path=/");
        assertThatThrownBy(() -> SessionCookie.builder().domain("example.com").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Domain");
    }

    @Test
    void securePrefixAndSameSiteNoneDemandSecure() {
        assertThatThrownBy(() -> SessionCookie.builder().name("__Secure-sid").secure(false).build())
                .hasMessageContaining("__Secure-");
        assertThatThrownBy(() -> SessionCookie.builder().name("sid").secure(false)
                .sameSite(SessionCookie.SameSite.NONE).build()).hasMessageContaining("SameSite=None");
        assertThat(SessionCookie.builder().sameSite(SessionCookie.SameSite.NONE).build().header(id))
                .endsWith("; Secure; HttpOnly; SameSite=None");
    }

    @Test
    void namesAndAttributesThatCouldInjectAnotherAttributeAreRefused() {
        assertThatThrownBy(() -> SessionCookie.builder().name("sid; Domain=evil.com")).hasMessageContaining("name");
        assertThatThrownBy(() -> SessionCookie.builder().name("")).hasMessageContaining("name");
        assertThatThrownBy(() -> SessionCookie.builder().path("/; Domain=evil.com")).hasMessageContaining("path");
        assertThatThrownBy(() -> SessionCookie.builder().path("app")).hasMessageContaining("path");
        assertThatThrownBy(() -> SessionCookie.builder().domain("evil.com; Secure")).hasMessageContaining("domain");
        assertThatThrownBy(() -> SessionCookie.builder().maxAge(Duration.ofSeconds(-1))).hasMessageContaining("maxAge");
    }

    @Test
    void readFindsTheCookieAmongOthers() {
        SessionCookie cookie = SessionCookie.defaults();
        assertThat(cookie.read("theme=dark; __Host-sid=" + id.value() + "; lang=en")).contains(id.value());
        assertThat(cookie.read("__Host-sid2=x; theme=dark")).isEmpty();
        assertThat(cookie.read(null)).isEmpty();
        assertThat(cookie.read("__Host-sid=")).contains("");
    }
}
