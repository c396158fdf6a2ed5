package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.redkit.internal.RedisUrl;

/**
 * Passwords generated from the characters that break naive URL parsing ({@code # ? / @ : % + = &}, space) and
 * letters: each one parses back to itself, and no {@code toString}, masked URL or error message shows it.
 *
 * <p>The encoding rule under test (see {@link RedisUrl}): in the password a {@code %} must be written {@code %25};
 * any other character may be written raw or as the {@code %XX} of its UTF-8 bytes; when there is no
 * {@code user:} before it, a {@code :} must be written {@code %3A} (the first raw {@code :} ends the user name).
 */
class RedisUrlPasswordPropertyTest {

    private static final String ALPHABET = "#?/@:%+=& abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéж";
    private static final int RUNS = 5_000;

    /** Valid URLs; {@code %s} is the userinfo. */
    private static final List<String> FORMS = List.of(
            "redis://%s@h:6379",
            "redis://%s@cache.internal:6380/3?timeout=1.5s&clientName=svc",
            "rediss://%s@tls.example.com:6380?verifyPeer=ca",
            "redis-sentinel://%s@s1,s2:26380/2#mymaster",
            "rediss-sentinel://%s@[::1]:26379#mymaster",
            "redis://%s@a:7000,b:7001,[::1]:7002");

    /** Invalid URLs, each wrong after the userinfo. */
    private static final List<String> BAD_FORMS = List.of(
            "redis://%s@h:notaport",
            "redis://%s@h:70000",
            "redis://%s@h?tiemout=1s",
            "redis://%s@h?timeout=1e400s",
            "redis://%s@h?connectTimeout=NaNs",
            "redis://%s@h?name=has%%20space",
            "rediss://%s@h?cacert=%%00",
            "redis://%s@h?verifyPeer=ca",
            "redis://%s@h/abc",
            "redis://%s@h#master",
            "redis-sentinel://%s@s1",
            "redis://%s@a:1,b:2/3",
            "redis://%s@",
            "redis://%s@h,,h2",
            "redis://%s@h!",
            "http://%s@h",
            "redis:%s@h",
            "redis//%s@h");

    @Test
    void everyGeneratedPasswordRoundTripsAndIsNeverShown() {
        Random random = new Random(10);
        for (int i = 0; i < RUNS; i++) {
            String password = password(random);
            boolean withUser = random.nextBoolean();
            String userInfo = userInfo(withUser, password, random);
            String encoded = userInfo.substring(userInfo.indexOf(':') + 1);
            for (String form : FORMS) {
                String url = String.format(form, userInfo);
                RedkitConfig config = RedkitConfig.fromUrl(url);
                assertThat(config.password()).as(url).isEqualTo(password);
                assertThat(config.username()).as(url).isEqualTo(withUser ? "app" : null);
                assertNotShown(password, encoded, config.toString(), config.maskedUrl(),
                        RedisUrl.parse(url).toString(), RedisUrl.mask(url));
            }
            for (String form : BAD_FORMS) {
                String url = String.format(form, userInfo);
                Throwable failure = catchThrowable(() -> RedkitConfig.fromUrl(url));
                assertThat(failure).as(url).isInstanceOf(RedisUrlException.class).hasNoCause();
                assertNotShown(password, encoded, failure.getMessage());
            }
        }
    }

    @Test
    void mangledUrlsFailOnlyWithRedisUrlExceptionAndNeverShowAnIntactPassword() {
        Random random = new Random(11);
        String noise = "%@:/?#[],=&{} \u0000é";
        for (int i = 0; i < RUNS * 4; i++) {
            String password = password(random);
            String userInfo = userInfo(random.nextBoolean(), password, random);
            String url = String.format(FORMS.get(random.nextInt(FORMS.size())), userInfo);
            int at = url.lastIndexOf('@');
            int position = random.nextInt(url.length() + 1);
            String mangled = switch (random.nextInt(3)) {
                case 0 -> url.substring(0, position);
                case 1 -> url.substring(0, position) + noise.charAt(random.nextInt(noise.length()))
                        + url.substring(position);
                default -> url.substring(0, position) + url.substring(Math.min(url.length(), position + 1));
            };
            String encoded = userInfo.substring(userInfo.indexOf(':') + 1);
            RedkitConfig[] parsed = new RedkitConfig[1];
            Throwable failure = catchThrowable(() -> parsed[0] = RedkitConfig.fromUrl(mangled));
            if (failure != null) {
                assertThat(failure).as(mangled).isInstanceOf(RedisUrlException.class).hasNoCause();
            }
            if (position > at) {
                // The userinfo and its closing '@' are intact: the password must stay hidden, whatever follows.
                assertNotShown(password, encoded, RedisUrl.mask(mangled), failure != null ? failure.getMessage()
                        : parsed[0].toString() + parsed[0].maskedUrl() + parsed[0].username());
            }
        }
    }

    private static void assertNotShown(String password, String encoded, String... texts) {
        for (String text : texts) {
            assertThat(text).doesNotContain(password).doesNotContain(encoded);
        }
    }

    /** 8 to 24 characters, so that a password is never by chance a substring of the text around it. */
    private static String password(Random random) {
        StringBuilder sb = new StringBuilder();
        int length = 8 + random.nextInt(17);
        for (int i = 0; i < length; i++) {
            sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }

    private static String userInfo(boolean withUser, String password, Random random) {
        StringBuilder sb = new StringBuilder(withUser ? "app:" : "");
        for (char c : password.toCharArray()) {
            if (c == '%' || (c == ':' && !withUser) || random.nextInt(4) == 0) {
                for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
                    sb.append('%').append(String.format("%02X", b & 0xFF));
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
