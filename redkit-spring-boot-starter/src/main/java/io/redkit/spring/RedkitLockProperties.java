package io.redkit.spring;

import java.time.Duration;

/**
 * {@code redkit.lock.*}: the {@code Locks} bean. Every default is redkit-lock's {@code LockConfig.DEFAULT_…}, written
 * out so that this class loads without redkit-lock ({@code PropertyDefaultsTest} keeps them equal).
 */
public class RedkitLockProperties {

    /** Key namespace of the locks: lock:{name}. */
    private String namespace = "lock";

    /** Lease time to live; the watchdog extends it every third while the lease is held. */
    private Duration ttl = Duration.ofSeconds(30);

    /** Whether a watchdog extends held leases (a lease without one only expires). */
    private boolean watchdog = true;

    /** The longest wait a tryAcquire accepts; acquire() waits this long. */
    private Duration maxWait = Duration.ofMinutes(5);

    /** How long an idle fence counter is kept (at least 1h, and twice the TTL). */
    private Duration fenceRetention = Duration.ofDays(7);

    /** Tag meters with the lock name: only for a small, fixed set of names. */
    private boolean tagLockNames;

    public String getNamespace() { return namespace; }
    public void setNamespace(String namespace) { this.namespace = namespace; }
    public Duration getTtl() { return ttl; }
    public void setTtl(Duration ttl) { this.ttl = ttl; }
    public boolean isWatchdog() { return watchdog; }
    public void setWatchdog(boolean watchdog) { this.watchdog = watchdog; }
    public Duration getMaxWait() { return maxWait; }
    public void setMaxWait(Duration maxWait) { this.maxWait = maxWait; }
    public Duration getFenceRetention() { return fenceRetention; }
    public void setFenceRetention(Duration fenceRetention) { this.fenceRetention = fenceRetention; }
    public boolean isTagLockNames() { return tagLockNames; }
    public void setTagLockNames(boolean tagLockNames) { this.tagLockNames = tagLockNames; }
}
