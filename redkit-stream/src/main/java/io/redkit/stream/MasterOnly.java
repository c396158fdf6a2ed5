package io.redkit.stream;

import java.util.Objects;

import io.redkit.ReadFrom;

/**
 * The one refusal of replica reads for this module's configurations (DESIGN §4.12). The same check lives in
 * redkit-core as {@code Validate.masterOnly} on the main line; this copy goes once the branches meet.
 */
final class MasterOnly {

    private MasterOnly() {
    }

    static ReadFrom require(String feature, ReadFrom value, String risk) {
        if (Objects.requireNonNull(value, "readFrom") != ReadFrom.MASTER) {
            throw new IllegalArgumentException("readFrom " + value + " refused: " + feature + " read and write the"
                    + " master only; " + risk);
        }
        return value;
    }
}
