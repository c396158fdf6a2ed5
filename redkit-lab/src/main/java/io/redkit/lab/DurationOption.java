package io.redkit.lab;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A duration on the command line, written as {@code 500ms}, {@code 2s} or {@code 1m}. */
public final class DurationOption implements ITypeConverter<Duration> {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)");

    /** The duration {@code text} names, or empty when it is not one. */
    public static Optional<Duration> parse(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        return Optional.of(switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            default -> Duration.ofMinutes(n);
        });
    }

    @Override
    public Duration convert(String text) {
        return parse(text).orElseThrow(() -> new TypeConversionException("'" + text
                + "' is not a duration like 500ms, 2s, 1m"));
    }
}
