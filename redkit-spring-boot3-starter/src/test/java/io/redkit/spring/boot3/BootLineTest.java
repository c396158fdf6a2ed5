package io.redkit.spring.boot3;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.core.SpringVersion;

/**
 * This module's tests (its own and the Boot 4 starter's that name no Boot 4 class) run on Spring Boot 3.5 with the
 * libraries Boot 3.5.7 manages, as an application under {@code spring-boot-starter-parent} 3.5.7 gets them: Lettuce
 * 6.6 (redkit is built on 7.7), Netty 4.1, Micrometer 1.15, Jackson 2 only.
 */
class BootLineTest {

    @Test
    void theTestsHereRunOnSpringBoot35AndSpring62() {
        assertThat(SpringBootVersion.getVersion()).isEqualTo("3.5.7");
        assertThat(SpringVersion.getVersion()).startsWith("6.2.");
    }

    @Test
    void withTheLettuceNettyMicrometerAndJacksonBoot35Manages() {
        assertThat(version(io.lettuce.core.RedisClient.class)).startsWith("6.6.0.RELEASE");
        assertThat(version(io.netty.channel.Channel.class)).isEqualTo("4.1.128.Final");
        assertThat(version(io.micrometer.core.instrument.MeterRegistry.class)).isEqualTo("1.15.5");
        assertThat(version(io.micrometer.observation.ObservationRegistry.class)).isEqualTo("1.15.5");
        assertThat(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString()).isEqualTo("2.19.2");
    }

    @Test
    void withoutJackson3() {
        assertThat(getClass().getClassLoader().getResource("tools/jackson/databind/json/JsonMapper.class")).isNull();
    }

    private static String version(Class<?> type) {
        return type.getPackage().getImplementationVersion();
    }
}
