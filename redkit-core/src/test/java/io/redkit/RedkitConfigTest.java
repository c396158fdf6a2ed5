package io.redkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.redkit.internal.RedisUrl;

class RedkitConfigTest {

    private static final String SECRET = "s3cr3t-Pa55";

    @Test
    void defaultsDifferFromLettuceOnPurpose() {
        RedkitConfig config = RedkitConfig.fromUrl("redis://127.0.0.1:6379");
        assertThat(config.requestProfile().timeout()).isEqualTo(Duration.ofMillis(300));
        assertThat(config.requestProfile().maxRetries()).isEqualTo(1);
        assertThat(config.requestProfile().retryOnTimeout()).isFalse();
        assertThat(config.backgroundProfile().maxRetries()).isEqualTo(3);
        assertThat(config.backgroundProfile().backoffMin()).isEqualTo(Duration.ofMillis(8));
        assertThat(config.backgroundProfile().backoffMax()).isEqualTo(Duration.ofMillis(512));
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.dedicatedPool().maxIdle()).isEqualTo(10);
        assertThat(config.dedicatedPool().maxSize()).isEqualTo(20);
        // Lettuce's own: where Redis is the bottleneck, consolidated flushes cost 5-19% of the throughput.
        assertThat(config.consolidateFlushes()).isFalse();
    }

    @Test
    void consolidatedFlushesAreAskedForAndKept() {
        RedkitConfig config = RedkitConfig.builder().url("redis://127.0.0.1:6379").consolidateFlushes(true).build();
        assertThat(config.consolidateFlushes()).isTrue();
        assertThat(config.toBuilder().build().consolidateFlushes()).isTrue();
    }

    @Test
    void standaloneUrlWithAclUserDatabaseAndParameters() {
        RedkitConfig config = RedkitConfig.fromUrl(
                "redis://app:" + SECRET + "@cache.internal:6380/3?timeout=150ms&connectTimeout=1s&clientName=svc");
        assertThat(config.topology()).isEqualTo(Topology.STANDALONE);
        assertThat(config.endpoints()).containsExactly(new RedisEndpoint("cache.internal", 6380));
        assertThat(config.username()).isEqualTo("app");
        assertThat(config.password()).isEqualTo(SECRET);
        assertThat(config.database()).isEqualTo(3);
        assertThat(config.requestProfile().timeout()).isEqualTo(Duration.ofMillis(150));
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.clientName()).isEqualTo("svc");
    }

    @Test
    void percentEncodedPasswordIsDecoded() {
        RedkitConfig config = RedkitConfig.fromUrl("redis://:p%40ss%3Aword%2B@localhost");
        assertThat(config.username()).isNull();
        assertThat(config.password()).isEqualTo("p@ss:word+");
        assertThat(config.endpoints()).containsExactly(new RedisEndpoint("localhost", 6379));
    }

    @Test
    void tlsUrlVerifiesFullyByDefault() {
        RedkitConfig config = RedkitConfig.fromUrl("rediss://redis.example.com:6380");
        assertThat(config.tls()).isTrue();
        assertThat(config.tlsVerify()).isEqualTo(TlsVerify.FULL);
        assertThat(RedkitConfig.fromUrl("rediss://10.0.0.1?verifyPeer=ca").tlsVerify()).isEqualTo(TlsVerify.CA);
    }

    @Test
    void sentinelUrlListsSentinelsAndNamesTheMaster() {
        RedkitConfig config = RedkitConfig.fromUrl("redis-sentinel://s1:26379,s2,s3:26380/2#mymaster");
        assertThat(config.topology()).isEqualTo(Topology.SENTINEL);
        assertThat(config.endpoints()).containsExactly(new RedisEndpoint("s1", 26379),
                new RedisEndpoint("s2", 26379), new RedisEndpoint("s3", 26380));
        assertThat(config.sentinelMasterId()).isEqualTo("mymaster");
        assertThat(config.database()).isEqualTo(2);
    }

    @Test
    void commaListOfSeedsMeansCluster() {
        RedkitConfig config = RedkitConfig.fromUrl("redis://10.0.0.1:7000,10.0.0.2:7001,[::1]:7002");
        assertThat(config.topology()).isEqualTo(Topology.CLUSTER);
        assertThat(config.endpoints()).containsExactly(new RedisEndpoint("10.0.0.1", 7000),
                new RedisEndpoint("10.0.0.2", 7001), new RedisEndpoint("::1", 7002));
        assertThat(RedkitConfig.fromUrl("redis://seed:7000?topology=cluster").topology())
                .isEqualTo(Topology.CLUSTER);
    }

    @Test
    void fromEnvReadsRedisUrlAndNamesTheVariableWhenMissing() {
        assertThat(RedkitConfig.fromEnv(Map.of("REDIS_URL", "redis://h:1")).endpoints())
                .containsExactly(new RedisEndpoint("h", 1));
        assertThatThrownBy(() -> RedkitConfig.fromEnv(Map.of())).hasMessageContaining("REDIS_URL");
    }

    @Test
    void toStringAndMaskedUrlNeverShowThePassword() {
        RedkitConfig config = RedkitConfig.fromUrl("redis://app:" + SECRET + "@h:6379");
        assertThat(config.toString()).doesNotContain(SECRET).contains("app:****@h:6379");
        assertThat(config.maskedUrl()).isEqualTo("redis://app:****@h:6379");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "http://u:SECRET@h:6379            | unknown scheme 'http'",
        "redis//u:SECRET@h                 | missing scheme",
        "redis://u:SECRET@h:notaport       | bad port of host 'h'",
        "redis://u:SECRET@h:70000          | port 70000",
        "redis://u:SECRET@                 | missing host",
        "redis://u:SECRET@h,,h2            | empty host",
        "redis://u:SECRET@h/abc            | database 'abc'",
        "redis://u:SECRET@h?timeout=soon   | timeout=soon is not a duration",
        "redis://u:SECRET@h?timeout=0ms    | timeout=0ms must be positive",
        "redis://u:SECRET@h?tiemout=1s     | unknown parameter 'tiemout'",
        "redis-sentinel://u:SECRET@s1      | missing master name",
        "redis://u:SECRET@a:1,b:2/3        | database 3 is not available on Cluster",
        "redis://u:SECRET@h?verifyPeer=ca  | need TLS",
        "redis://u:SECRET@h#master         | only meaningful in a redis-sentinel",
        "redis://u:@h                      | empty password",
        "redis://u:SECRET@h?topology=ring  | topology=ring",
        "redis://u:SECRET#x@h:notaport     | bad port of host 'h'",
        "redis://u:?SECRET@h?tiemout=1s    | unknown parameter 'tiemout'",
        "redis://u:/SECRET@h/abc           | database 'abc'",
        "redis://SECRET@h:70000            | port 70000",
        "redis//SECRET@h                   | missing scheme",
        "SECRET@redis://h                  | missing scheme",
        "redis://u:SECRET                  | bad port of host 'u'",
        "redis://u:SECRET%zz@h             | bad percent-encoding in the password",
        "redis://u:SECRET%FF@h             | bad percent-encoding in the password",
        "redis://u:SECRET@h?name=has%20sp  | name must be",
        "redis://SECRET@h:63@79            | in the user name (write it %40",
        "rediss://u:SECRET@h?cacert=%00    | cacert",
    })
    void invalidUrlNamesTheBadPartWithoutEchoingThePassword(String url, String expected) {
        String withSecret = url.replace("SECRET", SECRET);
        assertThatThrownBy(() -> RedkitConfig.fromUrl(withSecret))
                .isInstanceOf(RedisUrlException.class)
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContainIgnoringCase(SECRET))
                .hasNoCause();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "redis://admin:hunter2#x@h           | admin | hunter2#x",
        "redis://admin:a?b=c&d@h             | admin | a?b=c&d",
        "redis://admin:a/b/c@h               | admin | a/b/c",
        "redis://admin:a:b@c@h               | admin | a:b@c",
        "redis://admin:p%40ss%3Aw%25rd+@h    | admin | p@ss:w%rd+",
        "redis://:%23%3F%2F%40%3A@h          |       | #?/@:",
        "redis://ad%3Amin:xyzzy@h            | ad:min | xyzzy",
    })
    void passwordMayHoldHashQuestionSlashColonAndAt(String url, String user, String password) {
        RedkitConfig config = RedkitConfig.fromUrl(url);
        assertThat(config.username()).isEqualTo(user);
        assertThat(config.password()).isEqualTo(password);
        assertThat(config.endpoints()).containsExactly(new RedisEndpoint("h", 6379));
        assertThat(config.maskedUrl()).doesNotContain(password).endsWith(":****@h:6379");
        assertThat(config.toString()).doesNotContain(password);
    }

    @Test
    void userinfoWithoutColonIsAPasswordAsInLettuce() {
        RedkitConfig config = RedkitConfig.fromUrl("redis://" + SECRET + "@cache.internal:6380");
        assertThat(config.username()).isNull();
        assertThat(config.password()).isEqualTo(SECRET);
        assertThat(config.maskedUrl()).isEqualTo("redis://:****@cache.internal:6380");
        assertThat(config.toString()).doesNotContain(SECRET);
        assertThat(RedisUrl.parse("redis://" + SECRET + "@h").toString()).doesNotContain(SECRET);
        assertThat(RedisUrl.mask("redis://" + SECRET + "@h")).isEqualTo("redis://****@h");
    }

    @Test
    void sentinelAndTlsFormsNeverShowThePassword() {
        String sentinel = "redis-sentinel://app:" + SECRET + "#1@s1,s2:26380/2?timeout=1s#mymaster";
        RedkitConfig config = RedkitConfig.fromUrl(sentinel);
        assertThat(config.password()).isEqualTo(SECRET + "#1");
        assertThat(config.sentinelMasterId()).isEqualTo("mymaster");
        assertThat(config.maskedUrl()).isEqualTo("redis-sentinel://app:****@s1:26379,s2:26380/2#mymaster");
        assertThat(config.toString()).doesNotContain(SECRET);
        assertThat(RedisUrl.parse(sentinel).toString()).doesNotContain(SECRET).contains("password=****");
        String tls = "rediss://app:" + SECRET + "?@tls.example.com:6380?verifyPeer=ca";
        RedkitConfig tlsConfig = RedkitConfig.fromUrl(tls);
        assertThat(tlsConfig.password()).isEqualTo(SECRET + "?");
        assertThat(tlsConfig.tlsVerify()).isEqualTo(TlsVerify.CA);
        assertThat(tlsConfig.maskedUrl()).isEqualTo("rediss://app:****@tls.example.com:6380");
        assertThat(tlsConfig.toString()).doesNotContain(SECRET);
        assertThat(RedisUrl.parse(tls).toString()).doesNotContain(SECRET);
    }

    @ParameterizedTest
    @ValueSource(strings = {"6379", "redis", "h", "app", "none", "@"})
    void passwordEqualToAnotherFieldIsMaskedWithoutTouchingThatField(String password) {
        String url = "redis://app:" + password.replace("@", "%40") + "@h:6379";
        RedkitConfig config = RedkitConfig.fromUrl(url);
        assertThat(config.password()).isEqualTo(password);
        assertThat(config.maskedUrl()).isEqualTo("redis://app:****@h:6379");
        assertThat(RedisUrl.mask(url)).isEqualTo("redis://app:****@h:6379");
        assertThat(RedisUrl.parse(url).toString()).contains("password=****").doesNotContain("password=" + password);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "timeout=300          | PT0.3S",
        "timeout=300ms        | PT0.3S",
        "timeout=1.5ms        | PT0.0015S",
        "timeout=1.5s         | PT1.5S",
        "timeout=0.25S        | PT0.25S",
        "timeout=2m           | PT2M",
        "timeout=60m          | PT1H",
        "timeout=1ms          | PT0.001S",
        "connectTimeout=5m    | PT5M",
        "connectTimeout=2.5s  | PT2.5S",
    })
    void durationsAreWholeOrDecimalMillisecondsSecondsOrMinutes(String parameter, Duration expected) {
        RedkitConfig config = RedkitConfig.fromUrl("redis://h?" + parameter);
        Duration parsed = parameter.startsWith("timeout") ? config.requestProfile().timeout() : config.connectTimeout();
        assertThat(parsed).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "timeout=1e400s                | timeout=1e400s is not a duration",
        "timeout=1e3ms                 | timeout=1e3ms is not a duration",
        "timeout=NaNs                  | timeout=NaNs is not a duration",
        "timeout=Infinitys             | timeout=Infinitys is not a duration",
        "timeout=0x10ms                | timeout=0x10ms is not a duration",
        "timeout=+5s                   | timeout=+5s is not a duration",
        "timeout=.5s                   | timeout=.5s is not a duration",
        "timeout=1.2345s               | timeout=1.2345s is not a duration",
        "timeout=2h                    | timeout=2h is not a duration",
        "timeout=                      | timeout= is not a duration",
        "timeout=-1s                   | timeout=-1s must be positive",
        "timeout=0                     | timeout=0 must be positive",
        "timeout=0.000s                | timeout=0.000s must be positive",
        "timeout=0.5ms                 | timeout=0.5ms must be at least 1ms",
        "timeout=61m                   | timeout=61m must be at most 60m",
        "timeout=3600001               | timeout=3600001 must be at most 60m",
        "timeout=99999999999999999999m | must be at most 60m",
        "connectTimeout=301s           | connectTimeout=301s must be at most 5m",
        "connectTimeout=1e400s         | connectTimeout=1e400s is not a duration",
    })
    void durationsOutsideTheBoundsAreRefusedNamingTheParameter(String parameter, String expected) {
        assertThatThrownBy(() -> RedkitConfig.fromUrl("redis://u:" + SECRET + "@h?" + parameter))
                .isInstanceOf(RedisUrlException.class)
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
    }

    @Test
    void builderRejectsBadValuesNamingThem() {
        assertThatThrownBy(() -> RedkitConfig.builder().commandTimeout(Duration.ZERO))
                .hasMessageContaining("timeout must be positive");
        assertThatThrownBy(() -> new DedicatedPoolConfig(0, 0, Duration.ofMillis(1)))
                .hasMessageContaining("maxSize");
        assertThatThrownBy(() -> new DedicatedPoolConfig(2, 3, Duration.ofMillis(1)))
                .hasMessageContaining("maxIdle");
        assertThatThrownBy(() -> RedkitConfig.builder().build()).hasMessageContaining("no endpoint");
        assertThatThrownBy(() -> RedkitConfig.builder().name("has space")).hasMessageContaining("name");
        assertThatThrownBy(() -> new CommandProfile("x", Duration.ofMillis(1), 1, Duration.ofMillis(10),
                Duration.ofMillis(5), true)).hasMessageContaining("backoffMax");
    }
}
