package io.redkit.demo;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;

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

    /** Checked against when the user does not exist, so that the answer takes as long. */
    private static final String DUMMY = "pbkdf2-sha256$600000$AAAAAAAAAAAAAAAAAAAAAA$"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

    private final JdbcTemplate jdbc;

    public Accounts(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The account when {@code password} is its password; empty otherwise, for a wrong user as for a wrong password. */
    public Optional<Account> authenticate(String username, String password) {
        Optional<Stored> stored = jdbc.query("SELECT id, display_name, password_hash FROM accounts WHERE id = ?",
                (rs, i) -> new Stored(new Account(rs.getString(1), rs.getString(2)), rs.getString(3)), username)
                .stream().findFirst();
        boolean matches = matches(password, stored.map(Stored::hash).orElse(DUMMY));
        return stored.filter(s -> matches).map(Stored::account);
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
