package io.redkit.spring.boot41;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/** The starter's tests in this module run on Spring Boot 4.1: not a silent rerun on 4.0. */
class BootLineTest {

    @Test
    void theStartersTestsHereRunOnSpringBoot41() {
        assertThat(SpringBootVersion.getVersion()).startsWith("4.1.");
    }
}
