package io.redkit.spring;

import java.time.Duration;

/**
 * {@code redkit.session.*}: the session store {@link RedkitSessions} builds. Every default is redkit-session's
 * {@code SessionConfig.DEFAULT_…}, written out so that this class loads without redkit-session.
 */
public class RedkitSessionProperties {

    /** Key namespace: sess:{digest of the id}. */
    private String namespace = "sess";

    /** How long an unused session lives; every load renews it. */
    private Duration idleTimeout = Duration.ofMinutes(30);

    /** How long a session lives at most, however busy; never renewed. */
    private Duration absoluteLifetime = Duration.ofHours(12);

    /** The largest stored session in bytes. */
    private int maxSessionBytes = 16384;

    /** The data's shape version: a session of a newer version reads as no session. */
    private int dataVersion = 1;

    /** The store's per-command timeout; unset: the client's request timeout (300ms). */
    private Duration timeout;

    public String getNamespace() { return namespace; }
    public void setNamespace(String namespace) { this.namespace = namespace; }
    public Duration getIdleTimeout() { return idleTimeout; }
    public void setIdleTimeout(Duration idleTimeout) { this.idleTimeout = idleTimeout; }
    public Duration getAbsoluteLifetime() { return absoluteLifetime; }
    public void setAbsoluteLifetime(Duration absoluteLifetime) { this.absoluteLifetime = absoluteLifetime; }
    public int getMaxSessionBytes() { return maxSessionBytes; }
    public void setMaxSessionBytes(int maxSessionBytes) { this.maxSessionBytes = maxSessionBytes; }
    public int getDataVersion() { return dataVersion; }
    public void setDataVersion(int dataVersion) { this.dataVersion = dataVersion; }
    public Duration getTimeout() { return timeout; }
    public void setTimeout(Duration timeout) { this.timeout = timeout; }
}
