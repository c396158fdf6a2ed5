package io.redkit.session;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The session cookie as {@code Set-Cookie} header values, without a servlet dependency. Defaults: named
 * {@value #DEFAULT_NAME}, {@code Path=/}, {@code Secure}, {@code HttpOnly}, {@code SameSite=Lax}, no
 * {@code Max-Age} unless a session's lifetime gives one. Immutable; the builder refuses what a browser would
 * drop or what would weaken the cookie: a {@code __Host-} name without Secure, with a Path other than {@code /} or
 * with a Domain; a {@code __Secure-} name or {@code SameSite=None} without Secure; names and attribute values that
 * could inject another attribute.
 */
public final class SessionCookie {

    /**
     * {@code __Host-} binds the cookie to the exact host over HTTPS: a sibling subdomain cannot set or overwrite it
     * (cookie tossing, session fixation). Browsers treat {@code http://localhost} as secure, so it works in
     * development too.
     */
    public static final String DEFAULT_NAME = "__Host-sid";

    /** The {@code SameSite} attribute. */
    public enum SameSite {
        /** Sent only with requests from the same site: no cross-site navigation carries it. */
        STRICT("Strict"),
        /** Also sent on top-level cross-site navigations (following a link): the usual choice for sign-in. */
        LAX("Lax"),
        /** Sent with every cross-site request; browsers require Secure with it. */
        NONE("None");

        private final String text;

        SameSite(String text) {
            this.text = text;
        }
    }

    private static final String HOST_PREFIX = "__Host-";
    private static final String SECURE_PREFIX = "__Secure-";

    private final String name;
    private final String path;
    private final String domain;
    private final boolean secure;
    private final boolean httpOnly;
    private final SameSite sameSite;
    private final Duration maxAge;

    private SessionCookie(Builder b) {
        this.name = b.name;
        this.path = b.path;
        this.domain = b.domain;
        this.secure = b.secure;
        this.httpOnly = b.httpOnly;
        this.sameSite = b.sameSite;
        this.maxAge = b.maxAge;
    }

    /** A builder with every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** The cookie with every default. */
    public static SessionCookie defaults() {
        return builder().build();
    }

    /** The {@code Set-Cookie} value for {@code id}: the configured Max-Age, or none (a browser-session cookie). */
    public String header(SessionId id) {
        return format(Objects.requireNonNull(id, "id").value(), maxAge);
    }

    /**
     * The {@code Set-Cookie} value for a session: Max-Age is what is left of its absolute lifetime at {@code now}
     * (or the configured Max-Age, when shorter), so the browser drops the cookie when the server would anyway.
     */
    public String header(Session<?> session, Instant now) {
        Duration left = Objects.requireNonNull(session, "session").lifetimeLeft(Objects.requireNonNull(now, "now"));
        return format(session.id().value(), maxAge != null && maxAge.compareTo(left) < 0 ? maxAge : left);
    }

    /** The {@code Set-Cookie} value that deletes the cookie (empty value, {@code Max-Age=0}): send it on logout. */
    public String clearHeader() {
        return format("", Duration.ZERO);
    }

    /**
     * This cookie's value in a {@code Cookie} request header ({@code a=1; __Host-sid=…}), the first if several;
     * empty when absent. The value is not checked here: {@link SessionStore#load(String)} refuses what is not an id.
     */
    public Optional<String> read(String cookieHeader) {
        if (cookieHeader == null) {
            return Optional.empty();
        }
        for (String pair : cookieHeader.split(";")) {
            String p = pair.strip();
            int eq = p.indexOf('=');
            if (eq > 0 && p.substring(0, eq).strip().equals(name)) {
                return Optional.of(p.substring(eq + 1).strip());
            }
        }
        return Optional.empty();
    }

    /** The cookie's name. */
    public String name() {
        return name;
    }

    private String format(String value, Duration age) {
        StringBuilder sb = new StringBuilder(128).append(name).append('=').append(value).append("; Path=")
                .append(path);
        if (domain != null) {
            sb.append("; Domain=").append(domain);
        }
        if (age != null) {
            sb.append("; Max-Age=").append(age.toSeconds());
        }
        if (secure) {
            sb.append("; Secure");
        }
        if (httpOnly) {
            sb.append("; HttpOnly");
        }
        return sb.append("; SameSite=").append(sameSite.text).toString();
    }

    @Override
    public String toString() {
        return "SessionCookie[" + format("…", maxAge) + "]";
    }

    /** Builds a {@link SessionCookie}; setters reject bad values at once, {@link #build()} checks the prefix rules. */
    public static final class Builder {
        private String name = DEFAULT_NAME;
        private String path = "/";
        private String domain;
        private boolean secure = true;
        private boolean httpOnly = true;
        private SameSite sameSite = SameSite.LAX;
        private Duration maxAge;

        private Builder() {
        }

        /** The cookie name: an RFC 6265 token (no spaces, separators or control characters). */
        public Builder name(String value) {
            if (value == null || value.isEmpty() || !value.chars().allMatch(Builder::tokenChar)) {
                throw new IllegalArgumentException("cookie name must be a non-empty RFC 6265 token, was '" + value
                        + "'");
            }
            this.name = value;
            return this;
        }

        /** The Path attribute: starts with {@code /}, no {@code ;} or control characters. */
        public Builder path(String value) {
            if (value == null || !value.startsWith("/") || !value.chars().allMatch(c -> c > 0x20 && c < 0x7F
                    && c != ';')) {
                throw new IllegalArgumentException("cookie path must start with '/' and hold no ';', space or"
                        + " control character, was '" + value + "'");
            }
            this.path = value;
            return this;
        }

        /** The Domain attribute (default none: the cookie goes to the exact host only). */
        public Builder domain(String value) {
            if (value == null || !value.matches("[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")) {
                throw new IllegalArgumentException("cookie domain must be a host name, was '" + value + "'");
            }
            this.domain = value;
            return this;
        }

        /** Whether the cookie is sent over HTTPS only (default true). */
        public Builder secure(boolean value) {
            this.secure = value;
            return this;
        }

        /** Whether scripts in the page are kept from reading it (default true). */
        public Builder httpOnly(boolean value) {
            this.httpOnly = value;
            return this;
        }

        /** The SameSite attribute (default {@link SameSite#LAX}). */
        public Builder sameSite(SameSite value) {
            this.sameSite = Objects.requireNonNull(value, "sameSite");
            return this;
        }

        /** A fixed Max-Age, 0 to 400 days (the longest browsers keep); default none. */
        public Builder maxAge(Duration value) {
            Objects.requireNonNull(value, "maxAge");
            if (value.isNegative() || value.compareTo(Duration.ofDays(400)) > 0) {
                throw new IllegalArgumentException("maxAge must be 0 to 400 days, was " + value);
            }
            this.maxAge = value;
            return this;
        }

        /** Checks the prefix and SameSite rules browsers enforce, and builds the cookie. */
        public SessionCookie build() {
            if (name.startsWith(HOST_PREFIX) && (!secure || !"/".equals(path) || domain != null)) {
                throw new IllegalArgumentException("a " + HOST_PREFIX + " cookie must be Secure, with Path=/ and no"
                        + " Domain (browsers drop it otherwise); was secure=" + secure + ", path=" + path
                        + ", domain=" + domain);
            }
            if (name.startsWith(SECURE_PREFIX) && !secure) {
                throw new IllegalArgumentException("a " + SECURE_PREFIX + " cookie must be Secure");
            }
            if (sameSite == SameSite.NONE && !secure) {
                throw new IllegalArgumentException("SameSite=None requires Secure (browsers drop it otherwise)");
            }
            return new SessionCookie(this);
        }

        private static boolean tokenChar(int c) {
            return c > 0x20 && c < 0x7F && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
        }
    }
}
