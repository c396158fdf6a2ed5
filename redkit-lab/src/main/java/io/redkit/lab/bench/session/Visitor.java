package io.redkit.lab.bench.session;

import java.io.Serializable;
import java.util.List;

/**
 * What the benchmark's sessions hold, the same for every contender: who signed in, their roles and a CSRF token,
 * about 150 bytes as JSON. Serializable because Spring Session's repository, as Spring Boot configures it, stores
 * attributes with JDK serialization.
 *
 * @param userId the user
 * @param name the display name
 * @param roles what the user may do
 * @param csrf the session's CSRF token
 */
public record Visitor(String userId, String name, List<String> roles, String csrf) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The sessions each contender creates before the rounds and loads at random during them. */
    static final int SESSIONS = 10_000;

    /** The data of session {@code i}. */
    static Visitor of(int i) {
        return new Visitor(user(i), "Visitor " + i, List.of("user", "orders:read"),
                "csrf-" + Integer.toHexString(i) + "-4f6e8c2d1a9b7e3f");
    }

    /** The user id of session {@code i}. */
    static String user(int i) {
        return "user-" + i;
    }
}
