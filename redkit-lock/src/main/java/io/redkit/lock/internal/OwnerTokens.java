package io.redkit.lock.internal;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Fresh owner tokens, one per acquisition: 64 bits that name this process, drawn once from {@link SecureRandom},
 * then 64 fresh random bits; 22 characters of base64url. Not API.
 *
 * <p>The token must be unique among everyone who may hold the lock, not secret: it is stored in Redis in clear,
 * and whoever can read it there can delete the key anyway. So the per-acquisition part comes from
 * {@link ThreadLocalRandom}, which has no lock; {@code SecureRandom.nextBytes} on Linux is one lock shared by the
 * process and was a thirtieth of a cycle's CPU with 64 threads acquiring (bench lock). Two processes collide only
 * if both their 64-bit prefixes and a 64-bit draw do.
 */
public final class OwnerTokens {

    private static final long PROCESS = new SecureRandom().nextLong();

    private OwnerTokens() {
    }

    /** A new token, unique with overwhelming probability across every process sharing the lock. */
    public static String next() {
        long fresh = ThreadLocalRandom.current().nextLong();
        byte[] bytes = new byte[16];
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (PROCESS >>> (56 - 8 * i));
            bytes[8 + i] = (byte) (fresh >>> (56 - 8 * i));
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
