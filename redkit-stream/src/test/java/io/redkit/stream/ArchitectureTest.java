package io.redkit.stream;

import org.junit.jupiter.api.Test;

import io.redkit.testing.ArchitectureRules;

/** The layering of DESIGN §1 and §2.10, checked on this module's classes (see {@link ArchitectureRules}). */
class ArchitectureTest {

    @Test
    void followsTheLayering() {
        ArchitectureRules.checkFeature("io.redkit.stream");
    }
}
