package io.redkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.redkit.internal.RedisUrl;

/**
 * Everything {@link Redkit} needs to connect, immutable. Build it from a URL ({@link #fromUrl}), from the
 * environment ({@link #fromEnv()}), or with {@link #builder()}; every default differs from Lettuce's for a reason
 * given next to it. {@link #toString()} never shows the password.
 */
public final class RedkitConfig {

    /** The variable {@link #fromEnv()} reads. */
    public static final String ENV_REDIS_URL = "REDIS_URL";
    /** Connecting is rare and may cross a network; 2 s, not Lettuce's 10 s, so a dead host fails start-up fast. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** How often a Cluster client re-reads the topology even when nothing triggered it. */
    public static final Duration DEFAULT_TOPOLOGY_REFRESH_PERIOD = Duration.ofSeconds(30);
    /** The longest pause between reconnect attempts; Lettuce's 30 s would outlast a Sentinel failover many times. */
    public static final Duration DEFAULT_MAX_RECONNECT_DELAY = Duration.ofMillis(500);
    /** The tag value that tells this client's meters from another {@code Redkit}'s in the same registry. */
    public static final String DEFAULT_NAME = "default";

    private final String name;
    private final Topology topology;
    private final List<RedisEndpoint> endpoints;
    private final boolean tls;
    private final TlsVerify tlsVerify;
    private final Path caCertificate;
    private final String username;
    private final String password;
    private final int database;
    private final String sentinelMasterId;
    private final String clientName;
    private final Duration connectTimeout;
    private final CommandProfile requestProfile;
    private final CommandProfile backgroundProfile;
    private final DedicatedPoolConfig dedicatedPool;
    private final Duration topologyRefreshPeriod;
    private final Duration maxReconnectDelay;
    private final MeterRegistry meterRegistry;
    private final ObservationRegistry observationRegistry;
    private final boolean traceCommands;
    private final boolean consolidateFlushes;
    private final RedkitClock clock;

    private RedkitConfig(Builder b) {
        this.name = b.name;
        this.topology = b.topology;
        this.endpoints = List.copyOf(b.endpoints);
        this.tls = b.tls;
        this.tlsVerify = b.tlsVerify;
        this.caCertificate = b.caCertificate;
        this.username = b.username;
        this.password = b.password;
        this.database = b.database;
        this.sentinelMasterId = b.sentinelMasterId;
        this.clientName = b.clientName;
        this.connectTimeout = b.connectTimeout;
        this.requestProfile = b.requestProfile;
        this.backgroundProfile = b.backgroundProfile;
        this.dedicatedPool = b.dedicatedPool;
        this.topologyRefreshPeriod = b.topologyRefreshPeriod;
        this.maxReconnectDelay = b.maxReconnectDelay;
        this.meterRegistry = b.meterRegistry;
        this.observationRegistry = b.observationRegistry;
        this.traceCommands = b.traceCommands;
        this.consolidateFlushes = b.consolidateFlushes;
        this.clock = b.clock;
    }

    /** A new builder with every default set and no endpoint. */
    public static Builder builder() {
        return new Builder();
    }

    /** The configuration a URL describes, with defaults for everything it does not say. */
    public static RedkitConfig fromUrl(String url) {
        return builder().url(url).build();
    }

    /** The configuration in {@code REDIS_URL}; fails naming the variable when it is not set. */
    public static RedkitConfig fromEnv() {
        return fromEnv(System.getenv());
    }

    /** The configuration in {@code REDIS_URL} of the given environment (for tests and launchers). */
    public static RedkitConfig fromEnv(Map<String, String> environment) {
        String url = environment.get(ENV_REDIS_URL);
        if (url == null || url.isBlank()) {
            throw new IllegalStateException(ENV_REDIS_URL + " is not set (expected e.g. redis://127.0.0.1:6379)");
        }
        return fromUrl(url);
    }

    /** A builder that starts from this configuration. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The name that tags this client's meters. */
    public String name() { return name; }
    /** Standalone, Sentinel or Cluster. */
    public Topology topology() { return topology; }
    /** The server, the Sentinels, or the Cluster seeds. */
    public List<RedisEndpoint> endpoints() { return endpoints; }
    /** Whether connections use TLS. */
    public boolean tls() { return tls; }
    /** How the server certificate is checked under TLS. */
    public TlsVerify tlsVerify() { return tlsVerify; }
    /** A PEM file of trusted CA certificates, or {@code null} for the JVM's trust store. */
    public Path caCertificate() { return caCertificate; }
    /** The ACL user, or {@code null} for the default user. */
    public String username() { return username; }
    /** Whether a password is set (the password itself is only handed to Lettuce). */
    public boolean hasPassword() { return password != null; }
    /** The database index (standalone and Sentinel only). */
    public int database() { return database; }
    /** The Sentinel master name. */
    public String sentinelMasterId() { return sentinelMasterId; }
    /** The name sent with CLIENT SETNAME, or {@code null}. */
    public String clientName() { return clientName; }
    /** How long a connection attempt may take. */
    public Duration connectTimeout() { return connectTimeout; }
    /** Timeout and retries on the request path. */
    public CommandProfile requestProfile() { return requestProfile; }
    /** Timeout and retries for background work. */
    public CommandProfile backgroundProfile() { return backgroundProfile; }
    /** The dedicated connection pool. */
    public DedicatedPoolConfig dedicatedPool() { return dedicatedPool; }
    /** The periodic Cluster topology refresh. */
    public Duration topologyRefreshPeriod() { return topologyRefreshPeriod; }
    /** The cap on the pause between reconnect attempts. */
    public Duration maxReconnectDelay() { return maxReconnectDelay; }
    /** Where meters go, or {@code null} for a private registry. */
    public MeterRegistry meterRegistry() { return meterRegistry; }
    /** Where the observations (traces) of the operations callers wait on go, or {@code null} for none. */
    public ObservationRegistry observationRegistry() { return observationRegistry; }
    /** Whether every Redis command is observed too, under the operation that sent it. */
    public boolean traceCommands() { return traceCommands; }
    /** Whether the commands of many callers leave in one socket write per turn of the event loop (off by default). */
    public boolean consolidateFlushes() { return consolidateFlushes; }
    /** The time source of this client and its features; {@link RedkitClock#SYSTEM} unless a test sets one. */
    public RedkitClock clock() { return clock; }

    /** The password, for the connection factory only; never log it. */
    public String password() { return password; }

    /** A URL for this configuration with the password masked, for logs. */
    public String maskedUrl() {
        return ConfigUrl.masked(this);
    }

    @Override
    public String toString() {
        return "RedkitConfig{name=" + name + ", url=" + maskedUrl() + ", topology=" + topology
                + (tls ? ", tlsVerify=" + tlsVerify : "") + ", connectTimeout=" + connectTimeout.toMillis() + "ms"
                + ", request=" + requestProfile + ", background=" + backgroundProfile + ", dedicatedPool="
                + dedicatedPool + "}";
    }

    /** Builds a {@link RedkitConfig}; every setter validates at once and names the bad value. */
    public static final class Builder {
        private String name = DEFAULT_NAME;
        private Topology topology = Topology.STANDALONE;
        private List<RedisEndpoint> endpoints = List.of();
        private boolean tls;
        private TlsVerify tlsVerify = TlsVerify.FULL;
        private Path caCertificate;
        private String username;
        private String password;
        private int database;
        private String sentinelMasterId;
        private String clientName;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private CommandProfile requestProfile = CommandProfile.REQUEST;
        private CommandProfile backgroundProfile = CommandProfile.BACKGROUND;
        private DedicatedPoolConfig dedicatedPool = DedicatedPoolConfig.DEFAULT;
        private Duration topologyRefreshPeriod = DEFAULT_TOPOLOGY_REFRESH_PERIOD;
        private Duration maxReconnectDelay = DEFAULT_MAX_RECONNECT_DELAY;
        private MeterRegistry meterRegistry;
        private ObservationRegistry observationRegistry;
        private boolean traceCommands;
        private boolean consolidateFlushes;
        private RedkitClock clock = RedkitClock.SYSTEM;

        private Builder() {
        }

        private Builder(RedkitConfig c) {
            name = c.name;
            topology = c.topology;
            endpoints = c.endpoints;
            tls = c.tls;
            tlsVerify = c.tlsVerify;
            caCertificate = c.caCertificate;
            username = c.username;
            password = c.password;
            database = c.database;
            sentinelMasterId = c.sentinelMasterId;
            clientName = c.clientName;
            connectTimeout = c.connectTimeout;
            requestProfile = c.requestProfile;
            backgroundProfile = c.backgroundProfile;
            dedicatedPool = c.dedicatedPool;
            topologyRefreshPeriod = c.topologyRefreshPeriod;
            maxReconnectDelay = c.maxReconnectDelay;
            meterRegistry = c.meterRegistry;
            observationRegistry = c.observationRegistry;
            traceCommands = c.traceCommands;
            consolidateFlushes = c.consolidateFlushes;
            clock = c.clock;
        }

        /**
         * Takes topology, endpoints, TLS, credentials, database and the URL's parameters from {@code url}. Every
         * problem, a setter's own check included, is a {@link RedisUrlException} that never shows the password;
         * a refused URL leaves this builder as it was.
         */
        public Builder url(String url) {
            RedisUrl parsed = RedisUrl.parse(url);
            try {
                return apply(parsed, RedisUrl.mask(url));
            } catch (RedisUrlException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw RedisUrl.invalid(url, e);
            }
        }

        private Builder apply(RedisUrl parsed, String masked) {
            Map<String, String> q = parsed.query();
            ConfigUrl.requireTlsForTlsParameters(parsed, masked);
            // Every value is checked before anything is set.
            CommandProfile request = ConfigUrl.requestProfile(q, requestProfile, masked);
            Duration connect = ConfigUrl.connectTimeout(q, connectTimeout, masked);
            TlsVerify verify = ConfigUrl.tlsVerify(q, tlsVerify, masked);
            Path ca = ConfigUrl.caCertificate(q, caCertificate, masked);
            if (q.containsKey("name")) {
                name(q.get("name"));
            }
            topology = parsed.topology();
            endpoints = parsed.endpoints();
            tls = parsed.tls();
            username = parsed.username();
            password = parsed.password();
            database = parsed.database();
            sentinelMasterId = parsed.sentinelMasterId();
            requestProfile = request;
            connectTimeout = connect;
            tlsVerify = verify;
            caCertificate = ca;
            clientName = q.getOrDefault("clientName", clientName);
            return this;
        }

        /** The name that tags this client's meters ({@value RedkitConfig#DEFAULT_NAME} by default). */
        public Builder name(String value) {
            if (value == null || !value.matches("[A-Za-z0-9_.-]{1,64}")) {
                throw new IllegalArgumentException("name must be 1-64 of [A-Za-z0-9_.-], was '" + value + "'");
            }
            this.name = value;
            return this;
        }

        /** A single standalone server. */
        public Builder standalone(String host, int port) {
            topology = Topology.STANDALONE;
            endpoints = List.of(new RedisEndpoint(host, port));
            sentinelMasterId = null;
            return this;
        }

        /** The ACL user and password ({@code null} user = the default user). */
        public Builder credentials(String user, String secret) {
            if (secret != null && secret.isEmpty()) {
                throw new IllegalArgumentException("password must not be empty (use null for none)");
            }
            this.username = user;
            this.password = secret;
            return this;
        }

        /** The name sent with CLIENT SETNAME, visible in CLIENT LIST. */
        public Builder clientName(String value) {
            this.clientName = value;
            return this;
        }

        /** How long a connection attempt may take. */
        public Builder connectTimeout(Duration value) {
            CommandProfile.requirePositive("connectTimeout", value);
            CommandProfile.requireAtMost("connectTimeout", value, CommandProfile.MAX_DURATION);
            this.connectTimeout = value;
            return this;
        }

        /** The request path's per-attempt timeout (300 ms by default). */
        public Builder commandTimeout(Duration value) {
            this.requestProfile = requestProfile.withTimeout(value);
            return this;
        }

        /** Replaces the request profile. */
        public Builder requestProfile(CommandProfile value) {
            this.requestProfile = Objects.requireNonNull(value, "requestProfile");
            return this;
        }

        /** Replaces the background profile. */
        public Builder backgroundProfile(CommandProfile value) {
            this.backgroundProfile = Objects.requireNonNull(value, "backgroundProfile");
            return this;
        }

        /** Replaces the dedicated pool settings. */
        public Builder dedicatedPool(DedicatedPoolConfig value) {
            this.dedicatedPool = Objects.requireNonNull(value, "dedicatedPool");
            return this;
        }

        /** How often a Cluster client re-reads the topology without a trigger. */
        public Builder topologyRefreshPeriod(Duration value) {
            CommandProfile.requirePositive("topologyRefreshPeriod", value);
            CommandProfile.requireAtMost("topologyRefreshPeriod", value, CommandProfile.MAX_DURATION);
            this.topologyRefreshPeriod = value;
            return this;
        }

        /** The cap on the pause between reconnect attempts. */
        public Builder maxReconnectDelay(Duration value) {
            CommandProfile.requirePositive("maxReconnectDelay", value);
            CommandProfile.requireAtMost("maxReconnectDelay", value, CommandProfile.MAX_DURATION);
            this.maxReconnectDelay = value;
            return this;
        }

        /** How the server certificate is checked under TLS. */
        public Builder tlsVerify(TlsVerify value) {
            this.tlsVerify = Objects.requireNonNull(value, "tlsVerify");
            return this;
        }

        /** A PEM file of CA certificates to trust instead of the JVM's trust store. */
        public Builder caCertificate(Path value) {
            this.caCertificate = value;
            return this;
        }

        /** Where meters go; without one, redkit keeps a private registry reachable via {@link Redkit#meters()}. */
        public Builder meterRegistry(MeterRegistry value) {
            this.meterRegistry = value;
            return this;
        }

        /**
         * Observes the operations callers wait on (lock acquire, cache get and load, limiter decision, session load,
         * stream handling): spans under the caller's trace, timers with a meter handler ({@link ObservedOperation}).
         */
        public Builder observationRegistry(ObservationRegistry value) {
            this.observationRegistry = value;
            return this;
        }

        /** Observes every command too (Lettuce's hook; arguments never in a span), needs an observationRegistry. */
        public Builder traceCommands(boolean value) {
            this.traceCommands = value;
            return this;
        }

        /**
         * Holds back the socket flush of each command until the event loop has taken every command queued meanwhile,
         * so that many callers' commands leave in one {@code writev} (Netty's {@code FlushConsolidationHandler}).
         * Off by default, as in Lettuce. On a client with many callers per connection it saves CPU: at 64 callers
         * 10-20% less client CPU per op on lock cycles and session loads, 20-40% on rate-limit decisions over
         * 10,000 keys (none on one hot key), and about a fifth more lock cycles per second; but where Redis is the
         * bottleneck the replies come back in convoys, and rate-limit decisions over 10,000 keys and session loads
         * lost 5-19% of their throughput against raw Lettuce.
         */
        public Builder consolidateFlushes(boolean value) {
            this.consolidateFlushes = value;
            return this;
        }

        /**
         * The time source of every deadline, backoff, lease validity and expiry of this client and the features
         * built on it; tests pass a clock they move by hand instead of sleeping.
         */
        public Builder clock(RedkitClock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /** Validates the whole and builds. */
        public RedkitConfig build() {
            if (endpoints.isEmpty()) {
                throw new IllegalStateException("no endpoint: call url(...) or standalone(host, port)");
            }
            if (topology == Topology.SENTINEL && (sentinelMasterId == null || sentinelMasterId.isBlank())) {
                throw new IllegalStateException("a Sentinel topology needs a master name");
            }
            if (caCertificate != null && !tls) {
                throw new IllegalStateException("caCertificate needs TLS (rediss://)");
            }
            if (traceCommands && observationRegistry == null) {
                throw new IllegalStateException("traceCommands needs an observationRegistry to observe into");
            }
            return new RedkitConfig(this);
        }
    }
}
