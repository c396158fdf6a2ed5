package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redkit.testing.internal.RedisBinary;
import org.junit.jupiter.api.Test;

class RedisBinaryTest {

    @Test
    void embeddedResourceIsChosenByOsAndArchitecture() {
        assertThat(RedisBinary.embeddedResource("Linux", "amd64")).isEqualTo("redis-server-6.2.6-v5-linux-amd64");
        assertThat(RedisBinary.embeddedResource("Linux", "aarch64")).isEqualTo("redis-server-6.2.7-linux-arm64");
        assertThat(RedisBinary.embeddedResource("Mac OS X", "x86_64")).isEqualTo("redis-server-6.2.6-v5-darwin-amd64");
        assertThat(RedisBinary.embeddedResource("Mac OS X", "aarch64")).isEqualTo("redis-server-6.2.6-v5-darwin-arm64");
        assertThatThrownBy(() -> RedisBinary.embeddedResource("Windows 11", "amd64"))
                .isInstanceOf(RedisTestingException.class).hasMessageContaining("redkit.redis.server");
    }

    @Test
    void versionComparisonReadsMajorAndMinor() {
        RedisBinary binary = new RedisBinary(java.nio.file.Path.of("redis-server"), "6.2.11");
        assertThat(binary.atLeast(6, 2)).isTrue();
        assertThat(binary.atLeast(7, 0)).isFalse();
        assertThat(binary.atLeast(5, 9)).isTrue();
    }
}
