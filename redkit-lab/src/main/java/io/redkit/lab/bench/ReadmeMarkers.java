package io.redkit.lab.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Replaces what stands between {@code <!-- bench:NAME:start -->} and {@code <!-- bench:NAME:end -->} in the
 * README, and nothing else; a benchmark without markers yet gets them appended at the end of the file.
 */
final class ReadmeMarkers {

    private ReadmeMarkers() {
    }

    static String start(String name) {
        return "<!-- bench:" + name + ":start -->";
    }

    static String end(String name) {
        return "<!-- bench:" + name + ":end -->";
    }

    /** Returns {@code readme} with the block of {@code name} replaced by {@code content}. */
    static String replace(String readme, String name, String content) {
        String block = start(name) + "\n" + content.strip() + "\n" + end(name);
        int s = readme.indexOf(start(name));
        int e = readme.indexOf(end(name));
        if (s < 0 && e < 0) {
            return readme.stripTrailing() + "\n\n" + block + "\n";
        }
        if (s < 0 || e < s) {
            throw new IllegalStateException("README has a broken bench:" + name + " marker pair");
        }
        return readme.substring(0, s) + block + readme.substring(e + end(name).length());
    }

    /** Rewrites the file in place. */
    static void update(Path readme, String name, String content) throws IOException {
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        Files.writeString(readme, replace(text, name, content), StandardCharsets.UTF_8);
    }
}
