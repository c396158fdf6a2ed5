package io.redkit.session;

import java.time.Duration;

import io.redkit.CommandProfile;
import io.redkit.ReadFrom;
import io.redkit.Validate;

/**
 * How the sessions of one {@link SessionStore} behave. Immutable; built by {@link #builder()}, which validates each
 * value as it is set and names the bad one. Every default is the constant next to its accessor.
 */
public final class SessionConfig {

    /**
     * Key namespace: sessions are {@code sess:{<digest of the id>}}, a user's index {@code sess.user:{<user id>}}
     * (see {@link SessionId#digest()}).
     */
    public static final String DEFAULT_NAMESPACE = "sess";
    /**
     * A session unused this long ends. 30 minutes is the servlet containers' and Spring Boot's default and the top
     * of OWASP's range for low-risk applications (high-value ones use 2-5 minutes).
     */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(30);
    /**
     * A session ends this long after it was created, however busy: it bounds what a stolen cookie is worth. 12
     * hours covers a long working day, so nobody is signed out mid-shift; OWASP suggests 4-8 hours for office
     * applications, and stricter services should set that.
     */
    public static final Duration DEFAULT_ABSOLUTE_LIFETIME = Duration.ofHours(12);
    /**
     * The largest stored session (header and payload). Every request reads the whole of it: 16 KiB at 10k requests
     * a second is 160 MB/s out of Redis. A session holds who the user is and a few flags.
     */
    public static final int DEFAULT_MAX_SESSION_BYTES = 16 * 1024;
    /** The shortest idle timeout accepted: shorter is not a session, and tests use about this much. */
    public static final Duration MIN_IDLE_TIMEOUT = Duration.ofMillis(100);
    /** The longest idle timeout or absolute lifetime accepted. */
    public static final Duration MAX_LIFETIME = Duration.ofDays(90);
    /** The largest {@link #maxSessionBytes()} accepted. */
    public static final int MAX_SESSION_BYTES_LIMIT = 16 * 1024 * 1024;
    /** The longest user id accepted: it becomes part of a key. */
    public static final int MAX_USER_ID_LENGTH = 512;

    private final String namespace;
    private final Duration idleTimeout;
    private final Duration absoluteLifetime;
    private final int maxSessionBytes;
    private final int dataVersion;
    private final Duration timeout;
    private final boolean upgradeRawIdKeys;

    private SessionConfig(Builder b) {
        this.namespace = b.namespace;
        this.idleTimeout = b.idleTimeout;
        this.absoluteLifetime = b.absoluteLifetime;
        this.maxSessionBytes = b.maxSessionBytes;
        this.dataVersion = b.dataVersion;
        this.timeout = b.timeout;
        this.upgradeRawIdKeys = b.upgradeRawIdKeys;
    }

    /** A builder with every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** Every default. */
    public static SessionConfig defaults() {
        return builder().build();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.namespace = namespace;
        b.idleTimeout = idleTimeout;
        b.absoluteLifetime = absoluteLifetime;
        b.maxSessionBytes = maxSessionBytes;
        b.dataVersion = dataVersion;
        b.timeout = timeout;
        b.upgradeRawIdKeys = upgradeRawIdKeys;
        return b;
    }

    /** Key namespace, also the {@code store} tag of the meters; default {@value #DEFAULT_NAMESPACE}. */
    public String namespace() { return namespace; }

    /** How long an unused session lives; every load renews it; default {@link #DEFAULT_IDLE_TIMEOUT}. */
    public Duration idleTimeout() { return idleTimeout; }

    /** How long a session lives at most, however busy; default {@link #DEFAULT_ABSOLUTE_LIFETIME}. */
    public Duration absoluteLifetime() { return absoluteLifetime; }

    /** The largest stored session in bytes; default {@value #DEFAULT_MAX_SESSION_BYTES}. */
    public int maxSessionBytes() { return maxSessionBytes; }

    /**
     * The version of the data's shape (0-65535, default 1), stored with each session: bump it when the data type
     * changes so that the codec can no longer read old sessions. A session of a higher version (written by a newer
     * release during a rolling deploy) is left alone and reads as no session here; one of a lower version is read
     * if the codec can, and ended if not.
     */
    public int dataVersion() { return dataVersion; }

    /**
     * The per-command timeout of the store, or null (the default) for the client's request profile
     * ({@link CommandProfile#DEFAULT_REQUEST_TIMEOUT}, 300 ms): an outage fails a request within this.
     */
    public Duration timeout() { return timeout; }

    /**
     * Whether sessions stored by an earlier release under their raw id ({@code sess:{<id>}}) are still found, and
     * moved to their digest key on their next load (default true), so that an upgrade logs nobody out. Bounded:
     * only after a load missed the digest key, and only for one absolute lifetime after the first store of the
     * namespace that looks (a marker key, {@code <namespace>.upgrade:{since}}, remembers when): every session an
     * earlier release created has ended by then. Such a look sends the cookie's raw id to Redis (a DEL of the old
     * key after the move, or a miss for an id of no session); turn it off for a namespace that never held raw ids.
     */
    public boolean upgradeRawIdKeys() { return upgradeRawIdKeys; }

    @Override
    public String toString() {
        return "SessionConfig[namespace=" + namespace + ", idleTimeout=" + idleTimeout + ", absoluteLifetime="
                + absoluteLifetime + ", maxSessionBytes=" + maxSessionBytes + ", dataVersion=" + dataVersion
                + ", timeout=" + (timeout == null ? "request profile" : timeout) + ", upgradeRawIdKeys="
                + upgradeRawIdKeys + "]";
    }

    /** Builds a {@link SessionConfig}; each setter rejects a bad value at once, naming it. */
    public static final class Builder {
        private String namespace = DEFAULT_NAMESPACE;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private Duration absoluteLifetime = DEFAULT_ABSOLUTE_LIFETIME;
        private int maxSessionBytes = DEFAULT_MAX_SESSION_BYTES;
        private int dataVersion = 1;
        private Duration timeout;
        private boolean upgradeRawIdKeys = true;

        private Builder() {
        }

        /** Key namespace: 1-58 of {@code [A-Za-z0-9_.-]} (the user index adds {@code .user}). */
        public Builder namespace(String value) {
            this.namespace = Validate.name("namespace", value, 58);
            return this;
        }

        /** Idle timeout, {@link #MIN_IDLE_TIMEOUT} to {@link #MAX_LIFETIME}. */
        public Builder idleTimeout(Duration value) {
            this.idleTimeout = Validate.within("idleTimeout", value, MIN_IDLE_TIMEOUT, MAX_LIFETIME);
            return this;
        }

        /** Absolute lifetime, up to {@link #MAX_LIFETIME}; at least the idle timeout (checked in {@link #build()}). */
        public Builder absoluteLifetime(Duration value) {
            this.absoluteLifetime = Validate.within("absoluteLifetime", value, MIN_IDLE_TIMEOUT, MAX_LIFETIME);
            return this;
        }

        /** The largest stored session, 256 bytes to {@link #MAX_SESSION_BYTES_LIMIT}. */
        public Builder maxSessionBytes(int value) {
            if (value < 256 || value > MAX_SESSION_BYTES_LIMIT) {
                throw new IllegalArgumentException("maxSessionBytes must be 256-" + MAX_SESSION_BYTES_LIMIT
                        + ", was " + value);
            }
            this.maxSessionBytes = value;
            return this;
        }

        /** The data's shape version, 0-65535 (see {@link SessionConfig#dataVersion()}). */
        public Builder dataVersion(int value) {
            if (value < 0 || value > 0xFFFF) {
                throw new IllegalArgumentException("dataVersion must be 0-65535, was " + value);
            }
            this.dataVersion = value;
            return this;
        }

        /** The store's per-command timeout, 1 ms to 10 s (default: the client's request profile). */
        public Builder timeout(Duration value) {
            this.timeout = ConfigChecks.timeout(value);
            return this;
        }

        /** Whether sessions under raw-id keys are still found and moved (see {@link SessionConfig#upgradeRawIdKeys()}). */
        public Builder upgradeRawIdKeys(boolean value) {
            this.upgradeRawIdKeys = value;
            return this;
        }

        /**
         * Sessions read and write the master only; anything else is refused here. A replica lags its master, so it
         * could still return a session that was just revoked: a logout that does not log out.
         *
         * @throws IllegalArgumentException for anything but {@link ReadFrom#MASTER}
         */
        public Builder readFrom(ReadFrom value) {
            ConfigChecks.masterOnly(value, "sessions",
                    "a replica may still return a session that was just revoked");
            return this;
        }

        /** Checks the values against each other and builds the configuration. */
        public SessionConfig build() {
            if (absoluteLifetime.compareTo(idleTimeout) < 0) {
                throw new IllegalArgumentException("absoluteLifetime (" + absoluteLifetime
                        + ") must be at least the idleTimeout (" + idleTimeout + ")");
            }
            return new SessionConfig(this);
        }
    }
}
