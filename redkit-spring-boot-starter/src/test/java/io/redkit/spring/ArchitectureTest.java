package io.redkit.spring;

import org.junit.jupiter.api.Test;

import io.redkit.testing.ArchitectureRules;

/** The layering of DESIGN §1 and §2.10 for the starter, which sits on top of the features. */
class ArchitectureTest {

    @Test
    void followsTheLayering() {
        ArchitectureRules.checkIntegration("io.redkit.spring");
    }
}
