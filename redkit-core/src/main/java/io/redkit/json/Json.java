package io.redkit.json;

import java.lang.reflect.Type;

/**
 * The JSON library behind redkit's default codecs (cache values, session data, queue payloads): Jackson 3
 * ({@code tools.jackson}) or Jackson 2 ({@code com.fasterxml.jackson}), whichever the application has, so that an
 * application configures one Jackson and redkit writes what it writes.
 *
 * <p>Both libraries are optional dependencies: an application brings one, or none when it gives every codec itself.
 * The factories that take a mapper live in classes of their own, {@link Jackson3Json#of} and {@link Jackson2Json#of},
 * never here: a type that names both libraries in its signatures breaks the reflection frameworks do on it (Spring
 * lists an interface's methods when it inspects a bean) and, overloaded, the compiler, whenever one is absent.
 *
 * <p>{@link #defaults()} writes the same bytes through either library (see its settings), so a service moving from
 * Jackson 2 to Jackson 3 neither empties its cache nor signs its users out: each reads what the other wrote.
 */
public interface Json {

    /** The binding of {@code type} (a {@code Class}, or a generic type such as a type reference's). */
    <T> JsonBinding<T> bind(Type type);

    /** Which library, for start-up lines and diagnostics: "Jackson 3.3.0 (the application's mapper)". */
    String describe();

    /**
     * redkit's own mapper on Jackson 3 when it is on the class path, else on Jackson 2, with every Jackson module
     * the class path declares, and these settings, chosen so both libraries write the same JSON and other languages
     * read it:
     * <ul>
     *   <li>properties this release does not know are ignored, so a rolling deploy that adds a field neither
     *       empties the cache, signs users out nor dead-letters messages;</li>
     *   <li>dates, times and durations as ISO-8601 text ({@code "2026-12-06T14:07:01Z"}, {@code "PT2S"}); epoch
     *       numbers written by earlier releases are still read; a time read keeps the offset it was written with
     *       (a cached {@code OffsetDateTime} equals the one loaded), where Jackson's default moves it to UTC;</li>
     *   <li>enums by {@code name()}, properties in declaration order, {@code null} for a primitive read as its
     *       zero (Jackson 2's behaviour; Jackson 3 would fail).</li>
     * </ul>
     *
     * @throws IllegalStateException when neither Jackson is on the class path, naming the artifacts to add
     */
    static Json defaults() {
        return DefaultJson.INSTANCE.get();
    }
}
