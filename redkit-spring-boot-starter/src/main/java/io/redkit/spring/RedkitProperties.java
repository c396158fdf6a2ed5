package io.redkit.spring;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import io.redkit.RedisUrlException;
import io.redkit.RedkitConfig;

/**
 * The {@code redkit.*} properties: where Redis is and the few client settings a service sets, then one group per
 * feature. A client setting left unset keeps what the URL says (its {@code ?timeout=}, {@code ?name=}…) or
 * redkit's default, so this class never overrides the URL with a default of its own. {@link #toString()} never
 * shows the password.
 */
@ConfigurationProperties("redkit")
public class RedkitProperties {

    /**
     * The Redis URL: {@code redis://[user:password@]host[:port][/db][?timeout=300ms]}, {@code rediss://} for TLS,
     * {@code redis-sentinel://h1,h2#master}, or a comma list of Cluster seeds. Unset: the REDIS_URL environment
     * variable.
     */
    private String url;

    /** The name that tags this client's meters ({@code client=<name>}); unset: the URL's or "default". */
    private String name;

    /** The name sent with CLIENT SETNAME, shown by CLIENT LIST; unset: the URL's or none. */
    private String clientName;

    /** How long a connection attempt may take; unset: the URL's or 2s, so a dead host fails start-up fast. */
    private Duration connectTimeout;

    /** The request path's per-attempt command timeout; unset: the URL's or 300ms (Lettuce's default is 60s). */
    private Duration commandTimeout;

    /** The background profile's per-attempt timeout (watchdogs, stream workers); unset: 1s. */
    private Duration backgroundTimeout;

    /** How often a Cluster client re-reads the topology without a trigger; unset: 30s. */
    private Duration topologyRefreshPeriod;

    /** The longest pause between reconnect attempts; unset: 500ms (Lettuce's 30s outlasts a failover). */
    private Duration maxReconnectDelay;
    /** One socket write for many callers' commands (see {@code RedkitConfig.Builder#consolidateFlushes}). */
    private Boolean consolidateFlushes;

    /**
     * Whether every Redis command is traced too, beneath the operation that sent it (a lock acquire, a cache read),
     * through Lettuce's tracing hook; unset: on when the application has a Micrometer Tracing {@code Tracer}.
     * The operations themselves are observed whenever there is an {@code ObservationRegistry}.
     */
    private Boolean traceCommands;

    /** The pool of dedicated connections (blocking reads, stream workers). */
    @NestedConfigurationProperty
    private final Pool pool = new Pool();

    /** Named caches served by the Spring CacheManager. */
    @NestedConfigurationProperty
    private final RedkitCacheProperties cache = new RedkitCacheProperties();

    /** The Locks bean. */
    @NestedConfigurationProperty
    private final RedkitLockProperties lock = new RedkitLockProperties();

    /** The Limits bean and the named limiters. */
    @NestedConfigurationProperty
    private final RedkitLimitProperties limit = new RedkitLimitProperties();

    /** The session store. */
    @NestedConfigurationProperty
    private final RedkitSessionProperties session = new RedkitSessionProperties();

    /** The named stream queues. */
    @NestedConfigurationProperty
    private final RedkitQueueProperties queue = new RedkitQueueProperties();

    public String getUrl() { return url; }
    public void setUrl(String url) { this.url = url; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getClientName() { return clientName; }
    public void setClientName(String clientName) { this.clientName = clientName; }
    public Duration getConnectTimeout() { return connectTimeout; }
    public void setConnectTimeout(Duration connectTimeout) { this.connectTimeout = connectTimeout; }
    public Duration getCommandTimeout() { return commandTimeout; }
    public void setCommandTimeout(Duration commandTimeout) { this.commandTimeout = commandTimeout; }
    public Duration getBackgroundTimeout() { return backgroundTimeout; }
    public void setBackgroundTimeout(Duration backgroundTimeout) { this.backgroundTimeout = backgroundTimeout; }
    public Duration getTopologyRefreshPeriod() { return topologyRefreshPeriod; }
    public void setTopologyRefreshPeriod(Duration value) { this.topologyRefreshPeriod = value; }
    public Duration getMaxReconnectDelay() { return maxReconnectDelay; }
    public void setMaxReconnectDelay(Duration maxReconnectDelay) { this.maxReconnectDelay = maxReconnectDelay; }
    public Boolean getConsolidateFlushes() { return consolidateFlushes; }
    public void setConsolidateFlushes(Boolean consolidateFlushes) { this.consolidateFlushes = consolidateFlushes; }
    public Boolean getTraceCommands() { return traceCommands; }
    public void setTraceCommands(Boolean traceCommands) { this.traceCommands = traceCommands; }
    public Pool getPool() { return pool; }
    public RedkitCacheProperties getCache() { return cache; }
    public RedkitLockProperties getLock() { return lock; }
    public RedkitLimitProperties getLimit() { return limit; }
    public RedkitSessionProperties getSession() { return session; }
    public RedkitQueueProperties getQueue() { return queue; }

    /** The URL with its password masked, for messages and logs. */
    public String maskedUrl() {
        if (url == null) {
            return "(unset)";
        }
        try {
            return RedkitConfig.fromUrl(url).maskedUrl();
        } catch (RedisUrlException | IllegalStateException e) {
            return "(not a usable URL; hidden)";
        }
    }

    @Override
    public String toString() {
        return "RedkitProperties{url=" + maskedUrl() + ", name=" + name + ", commandTimeout=" + commandTimeout
                + ", connectTimeout=" + connectTimeout + "}";
    }

    /** The dedicated connection pool; the defaults are redkit-core's {@code DedicatedPoolConfig.DEFAULT}. */
    public static class Pool {

        /** The most dedicated connections open at once; more usually means a leak. */
        private int maxSize = 20;

        /** The most dedicated connections kept open while unused. */
        private int maxIdle = 10;

        /** How long a caller waits for a free connection: no longer than for a command. */
        private Duration maxWait = Duration.ofMillis(300);

        public int getMaxSize() { return maxSize; }
        public void setMaxSize(int maxSize) { this.maxSize = maxSize; }
        public int getMaxIdle() { return maxIdle; }
        public void setMaxIdle(int maxIdle) { this.maxIdle = maxIdle; }
        public Duration getMaxWait() { return maxWait; }
        public void setMaxWait(Duration maxWait) { this.maxWait = maxWait; }
    }
}
