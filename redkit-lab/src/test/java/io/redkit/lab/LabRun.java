package io.redkit.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Runs the lab's CLI in the test JVM, as the lab integration tests do. */
public final class LabRun {

    private LabRun() {
    }

    /**
     * Runs {@code args} (which carry {@code --json}) and returns the one JSON object on stdout; fails, showing
     * stderr, unless the CLI exits 0.
     */
    public static JsonNode json(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LabMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        assertThat(code).as("exit code; stderr: %s", err).isZero();
        return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
    }
}
