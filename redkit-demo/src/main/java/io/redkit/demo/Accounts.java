package io.redkit.demo;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The demo accounts and their password check: PBKDF2-HMAC-SHA256 from the JDK (a demo needs no password library),
 * compared in constant time; an unknown user costs the same hash as a known one, so timing does not tell which.
 */
@Component
public class Accounts {

    /** What the session carries: who signed in. */
    public record Account(String id, String displayName) {
    }

    private record Stored(Account account, String hash) {
    }

    /** The role that may change products; every account may place orders. */
    public static final String EDITOR = "editor";

    /** Checked against when the user does not exist, so that the answer takes as long. */
    private static final String DUMMY = "pbkdf2-sha256$600000$AAAAAAAAAAAAAAAAAAAAAA$"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

    /*
     * A password check is 0.13 s of CPU on purpose, which makes sign-in the service's most expensive request: a
     * flood of them (the per-address limit bounds one address, not a thousand) must queue for a few hashing slots
     * rather than take every core from the reads. Half the cores hash at most; a sign-in waits for a slot at most
     * HASH_WAIT, and when HASH_QUEUE are already waiting it is refused at once (503 sign-in-busy, Retry-After).
     */
    static final int HASH_SLOTS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    static final int HASH_QUEUE = 16;
    static final Duration HASH_WAIT = Duration.ofSeconds(2);

    private final JdbcTemplate jdbc;
    private final Semaphore hashing = new Semaphore(HASH_SLOTS, true);
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong hashes = new AtomicLong();
    private final AtomicLong busy = new AtomicLong();

    public Accounts(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** What the password checks of this instance came to. */
    public record HashCounts(long computed, long refusedBusy, int slots) {
    }

    /**
     * The account when {@code password} is its password; empty otherwise, for a wrong user as for a wrong password.
     *
     * @throws ApiException {@code sign-in-busy} when no hashing slot frees up in time
     */
    public Optional<Account> authenticate(String username, String password) {
        Optional<Stored> stored = jdbc.query("SELECT id, display_name, password_hash FROM accounts WHERE id = ?",
                (rs, i) -> new Stored(new Account(rs.getString(1), rs.getString(2)), rs.getString(3)), username)
                .stream().findFirst();
        boolean matches = checkBounded(password, stored.map(Stored::hash).orElse(DUMMY));
        return stored.filter(s -> matches).map(Stored::account);
    }

    public HashCounts hashCounts() {
        return new HashCounts(hashes.get(), busy.get(), HASH_SLOTS);
    }

    private boolean checkBounded(String password, String encoded) {
        boolean acquired = false;
        // Counted here, not asked of the semaphore: its queue length is an estimate, and a check apart from the
        // acquire let more than HASH_QUEUE threads wait at once.
        if (waiting.incrementAndGet() <= HASH_QUEUE) {
            try {
                acquired = hashing.tryAcquire(HASH_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        waiting.decrementAndGet();
        if (!acquired) {
            busy.incrementAndGet();
            throw new ApiException(ProblemType.SIGN_IN_BUSY, "too many sign-ins are being checked; try again shortly");
        }
        try {
            hashes.incrementAndGet();
            return matches(password, encoded);
        } finally {
            hashing.release();
        }
    }

    /** Whether the account {@code userId} has {@code role} now. */
    public boolean hasRole(String userId, String role) {
        return Boolean.TRUE.equals(jdbc.queryForObject(
                "SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ? AND role = ?)", Boolean.class, userId, role));
    }

    static boolean matches(String password, String encoded) {
        String[] parts = encoded.split("\\$");
        if (parts.length != 4 || !parts[0].equals("pbkdf2-sha256")) {
            throw new IllegalStateException("unknown password hash format");
        }
        byte[] salt = Base64.getDecoder().decode(parts[2]);
        byte[] expected = Base64.getDecoder().decode(parts[3]);
        try {
            byte[] actual = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(new PBEKeySpec(
                    password.toCharArray(), salt, Integer.parseInt(parts[1]), expected.length * 8)).getEncoded();
            return MessageDigest.isEqual(expected, actual);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available", e);
        }
    }
}
