package io.redkit.session;

import java.time.Duration;

import io.redkit.ReadFrom;
import io.redkit.Validate;

/** What {@link SessionConfig} and {@link DenyListConfig} check alike. */
final class ConfigChecks {

    /** The shortest and longest per-command timeout a store accepts. */
    static final Duration MIN_TIMEOUT = Duration.ofMillis(1);
    static final Duration MAX_TIMEOUT = Duration.ofSeconds(10);

    private ConfigChecks() {
    }

    /** A per-command timeout, {@link #MIN_TIMEOUT} to {@link #MAX_TIMEOUT}. */
    static Duration timeout(Duration value) {
        return Validate.within("timeout", value, MIN_TIMEOUT, MAX_TIMEOUT);
    }

    /** Refuses anything but {@link ReadFrom#MASTER} for {@code what}, naming the {@code risk}. */
    static void masterOnly(ReadFrom value, String what, String risk) {
        Validate.masterOnly(what, value, risk);
    }
}
