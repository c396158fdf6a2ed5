package io.redkit.testing.internal;

import io.redkit.testing.RedisTestingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Renders and writes a redis.conf file.
 *
 * <p>Every server gets a conf file rather than command-line options because Sentinel insists on a
 * writable one, and because a restart must reuse exactly what the server last saw (Sentinel and
 * CONFIG REWRITE update it in place).
 */
public final class ConfFile {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.:/@+=,~*<>%&!^$-]+");

    private ConfFile() {
    }

    /**
     * One configuration line: a directive name and its values.
     *
     * @param name directive, for example {@code requirepass}
     * @param values its arguments, each quoted when needed
     */
    public record Directive(String name, List<String> values) {

        /** Creates a directive from a name and values. */
        public static Directive of(String name, Object... values) {
            return new Directive(name, java.util.Arrays.stream(values).map(String::valueOf).toList());
        }
    }

    /** Renders directives one a line, in order, so that a later directive overrides an earlier one. */
    public static String render(List<Directive> directives) {
        StringBuilder text = new StringBuilder();
        for (Directive directive : directives) {
            text.append(directive.name());
            for (String value : directive.values()) {
                text.append(' ').append(quote(value));
            }
            text.append('\n');
        }
        return text.toString();
    }

    /** Quotes a value the way redis' config parser (sdssplitargs) reads it back. */
    public static String quote(String value) {
        if (PLAIN.matcher(value).matches()) {
            return value;
        }
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }

    /** Writes the file through a temporary sibling so that a reader never sees half of it. */
    public static void write(Path file, List<Directive> directives) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, render(directives), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new RedisTestingException("Cannot write " + file, e);
        }
    }
}
