package io.redkit;

/**
 * A Redis URL that redkit cannot use. The message names the bad part and never contains the password.
 */
public final class RedisUrlException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code maskedUrl} must already have its password masked. */
    public RedisUrlException(String problem, String maskedUrl) {
        super("invalid Redis URL '" + maskedUrl + "': " + problem);
    }
}
