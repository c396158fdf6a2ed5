package io.redkit.json;

import java.util.function.Supplier;

/**
 * Picks the library for {@link Json#defaults()} once, by looking for its classes without loading the other's: the
 * classes that use a library are only loaded once it is known to be there.
 */
final class DefaultJson {

    static final Supplier<Json> INSTANCE = new Supplier<>() {
        private volatile Json json;

        @Override
        public Json get() {
            Json picked = json;
            if (picked == null) {
                picked = pick();
                json = picked;
            }
            return picked;
        }
    };

    static final String JACKSON3_MAPPER = "tools.jackson.databind.json.JsonMapper";
    static final String JACKSON2_MAPPER = "com.fasterxml.jackson.databind.ObjectMapper";

    private DefaultJson() {
    }

    private static Json pick() {
        if (present(JACKSON3_MAPPER)) {
            return Jackson3Json.redkitDefaults();
        }
        if (present(JACKSON2_MAPPER)) {
            return Jackson2Json.redkitDefaults();
        }
        throw new IllegalStateException("redkit: no JSON library for the default codec. Add tools.jackson.core:"
                + "jackson-databind (Jackson 3) or com.fasterxml.jackson.core:jackson-databind (Jackson 2) to the "
                + "dependencies, or give the cache, session store or queue a codec of your own.");
    }

    static boolean present(String className) {
        try {
            Class.forName(className, false, DefaultJson.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }
}
