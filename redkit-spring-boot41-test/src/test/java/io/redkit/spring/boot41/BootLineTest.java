package io.redkit.spring.boot41;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/**
 * The starter's tests in this module run on Spring Boot 4.1 with the libraries Boot 4.1.2 manages, as an
 * application under {@code spring-boot-starter-parent} gets them: not a silent rerun on 4.0 or on redkit's pins.
 */
class BootLineTest {

    @Test
    void theStartersTestsHereRunOnSpringBoot41() {
        assertThat(SpringBootVersion.getVersion()).startsWith("4.1.");
    }

    @Test
    void withTheLettuceNettyAndMicrometerBoot41Manages() {
        assertThat(version(io.lettuce.core.RedisClient.class)).startsWith("7.5.2.RELEASE");
        assertThat(version(io.netty.channel.Channel.class)).isEqualTo("4.2.19.Final");
        assertThat(version(io.micrometer.core.instrument.MeterRegistry.class)).isEqualTo("1.17.2");
    }

    private static String version(Class<?> type) {
        return type.getPackage().getImplementationVersion();
    }
}
