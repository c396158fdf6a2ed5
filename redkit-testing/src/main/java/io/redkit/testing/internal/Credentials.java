package io.redkit.testing.internal;

/**
 * What a server needs to authenticate admin connections: a password, and a user name when ACL users are used.
 *
 * @param user ACL user, or {@code null} for the default user ({@code requirepass})
 * @param password the password
 */
public record Credentials(String user, String password) {

    /** Returns the AUTH command arguments for these credentials. */
    public Object[] authCommand() {
        return user == null ? new Object[] {"AUTH", password} : new Object[] {"AUTH", user, password};
    }
}
