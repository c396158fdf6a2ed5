package io.redkit.cache;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/** The loader threw a checked exception; it is the cause. Nothing was cached. */
public final class CacheLoadException extends RedkitException {

    private static final long serialVersionUID = 1L;

    /** Wraps the loader's failure. */
    public CacheLoadException(String cache, Throwable cause) {
        super("cache '" + cache + "': loader failed: " + cause, Outcome.FAILED, cause);
    }
}
