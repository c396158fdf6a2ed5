package io.redkit.cache;

import io.redkit.Outcome;
import io.redkit.RedkitException;

/** A loaded value is above the cache's size limit even compressed, and the cache is set to {@link LargeValuePolicy#FAIL}. */
public final class ValueTooLargeException extends RedkitException {

    private static final long serialVersionUID = 1L;

    private final int size;
    private final int limit;

    /** Creates the exception for a value of {@code size} bytes against a limit of {@code limit}. */
    public ValueTooLargeException(String cache, int size, int limit) {
        super("cache '" + cache + "': value of " + size + " bytes (compressed) is above the limit of " + limit
                + " bytes; not cached", Outcome.NOT_EXECUTED, null);
        this.size = size;
        this.limit = limit;
    }

    /** The envelope size after compression. */
    public int size() {
        return size;
    }

    /** The configured limit. */
    public int limit() {
        return limit;
    }
}
