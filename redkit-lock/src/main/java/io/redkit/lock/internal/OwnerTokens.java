package io.redkit.lock.internal;

import java.security.SecureRandom;
import java.util.Base64;

/** Fresh owner tokens: 128 random bits, base64url, one per acquisition. Not API. */
public final class OwnerTokens {

    private static final SecureRandom RANDOM = new SecureRandom();

    private OwnerTokens() {
    }

    /** A new token, unique with overwhelming probability across every process sharing the lock. */
    public static String next() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
