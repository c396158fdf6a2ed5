package io.redkit.spring.boot40;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/**
 * The starter's tests in this module run on Spring Boot 4.0 with the libraries Boot 4.0.7 manages, as an
 * application under {@code spring-boot-starter-parent} gets them (Lettuce 6.8, where redkit is built on 7.7): not a
 * silent rerun on redkit's pins.
 */
class BootLineTest {

    @Test
    void theStartersTestsHereRunOnSpringBoot40() {
        assertThat(SpringBootVersion.getVersion()).startsWith("4.0.");
    }

    @Test
    void withTheLettuceNettyAndMicrometerBoot40Manages() {
        assertThat(version(io.lettuce.core.RedisClient.class)).startsWith("6.8.2.RELEASE");
        assertThat(version(io.netty.channel.Channel.class)).isEqualTo("4.2.15.Final");
        assertThat(version(io.micrometer.core.instrument.MeterRegistry.class)).isEqualTo("1.16.6");
    }

    private static String version(Class<?> type) {
        return type.getPackage().getImplementationVersion();
    }
}
