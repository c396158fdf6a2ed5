package io.redkit.cache;

import java.util.List;

/**
 * Settings that are valid one by one but cannot work together, such as {@link CacheFormat#PLAIN_JSON} with
 * compression: thrown when the cache's settings are validated, before anything is built.
 */
public final class CacheConfigException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> settings;

    /** {@code settings} names the builder methods that conflict, as the user called them. */
    public CacheConfigException(String cache, List<String> settings, String reason) {
        super("cache '" + cache + "': " + String.join(" and ", settings) + " cannot be combined: " + reason);
        this.settings = List.copyOf(settings);
    }

    /** The conflicting settings, by builder method name ({@code "format(PLAIN_JSON)"}, {@code "compressAbove"}). */
    public List<String> settings() {
        return settings;
    }
}
